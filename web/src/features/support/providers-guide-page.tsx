// "How to connect a provider" (the link under every Preview result): what a preview is, what each AI provider makes,
// and the steps for whoever runs the studio, as a page of the studio rather than a developer file. The operator's
// full reference stays in docs/deploy.md and docs/providers.md.
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PREVIEW_EXPLANATION } from '@contracts/preview';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/lib/paths';

const PREVIEW_DOES = [
  'On-model photos: your product, cut out, placed on a studio figure at the exact size and ratio you chose.',
  'Edits: the instructions the Edit screen lists (colours, brighter or darker, warmer or cooler, crops).',
  'Upscales: enlarged by the ESRGAN network, then to the exact size.',
  'Videos: your product in the motion you chose, as an exact loop.',
  'What a request asked for that the preview could not render is listed under its result.',
];

const PROVIDERS = [
  { name: 'Google (Gemini)', makes: 'On-model photos, edits from any instruction, and videos', needs: 'a Gemini API key from Google AI Studio' },
  { name: 'FASHN', makes: 'On-model photos (with a saved model’s face) and videos', needs: 'a FASHN API key' },
  { name: 'Amazon Bedrock', makes: 'Edits and upscales (Stability AI), videos (Luma Ray2)', needs: 'model access in the AWS account the studio runs in' },
  { name: 'ModelLoop’s own upscaler', makes: 'Upscales to 2K, 4K and 8K', needs: 'nothing, it runs inside the studio' },
];

const STEPS = [
  'Create a Gemini API key in Google AI Studio, on a project with billing turned on.',
  'Store it in AWS Secrets Manager, in the account the studio runs in, as modelloop/<stage>/google-api-key.',
  'Deploy the studio (npm run deploy -- --stage <stage>): its default settings use Google for photos, edits and videos.',
  'Run npm run providers:check once: it makes one picture, edit, upscale and video with the real provider, so you see them before your customers do.',
];

export default function ProvidersGuidePage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Connect an AI provider"
        description="Results marked Preview were made without an AI model. Connect a provider, and new photos and videos are made by its AI."
      />
      <Card>
        <CardHeader>
          <CardTitle>What “Preview” means</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3 text-sm text-slate-700">
          <p>{PREVIEW_EXPLANATION}</p>
          <ul className="list-disc space-y-1.5 pl-5">
            {PREVIEW_DOES.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p>A studio running on one computer (npm start) always makes previews: it has no provider to call.</p>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>What each provider makes</CardTitle>
        </CardHeader>
        <CardContent>
          <ul aria-label="Providers" className="divide-y divide-slate-100 text-sm">
            {PROVIDERS.map((provider) => (
              <li key={provider.name} className="grid gap-1 py-3 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4">
                <span className="font-semibold text-slate-900">{provider.name}</span>
                <span className="text-slate-700">
                  {provider.makes}. <span className="text-slate-600">Needs: {provider.needs}.</span>
                </span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Connect Google, step by step</CardTitle>
        </CardHeader>
        <CardContent className="space-y-3 text-sm text-slate-700">
          <p>Whoever runs your studio does this once (it takes about ten minutes):</p>
          <ol className="list-decimal space-y-1.5 pl-5">
            {STEPS.map((step) => (
              <li key={step} className="break-words">
                {step}
              </li>
            ))}
          </ol>
          <p>Other providers are chosen in the same deployment settings; the deploy guide that comes with the studio lists them.</p>
          <Link to={paths.generations} className="inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline">
            Back to your results <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
