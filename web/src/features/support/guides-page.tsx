// The guides the support page links to: each flow of the studio in a few steps, with a link to its screen.
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/lib/paths';

const GUIDES = [
  {
    id: 'library',
    title: 'Build your product library',
    to: paths.clothing,
    screen: 'Clothing',
    steps: [
      'Open Clothing and choose New Item (or Batch Upload for up to 3 photos at once).',
      'Pick a flat lay, hanger shot, ghost mannequin or jewelry photo (JPEG, PNG or WebP, up to 12 MB), or paste a product link.',
      'Choose the product type, Clothing or Jewelry: image generation and batches use it to place the product on the model.',
    ],
  },
  {
    id: 'images',
    title: 'Make on-model images',
    to: paths.imageGeneration,
    screen: 'Image Generation',
    steps: [
      'Choose an item from your library, upload a photo or paste a product link.',
      'Describe the model, pick the camera zoom, the size (1K, 2K, 4K) and the aspect ratio: 9:16, or 1:1, 4:5 and 3:4 for marketplaces.',
      'Generate Image costs 1 credit; a failed image is refunded. Edit, upscale, make a video or add the result to a batch from its preview.',
    ],
  },
  {
    id: 'videos',
    title: 'Make looping videos',
    to: paths.videoGeneration,
    screen: 'Video Generation',
    steps: [
      'Upload a product photo or choose one of your images, then pick a motion style (Pivot, Catwalk, 360 Spin) or describe your own.',
      'Choose the duration, aspect ratio and number of videos: 1 credit per video.',
      'The progress card shows the elapsed time; keep working, we tell you when the video is ready. Every video loops seamlessly.',
    ],
  },
  {
    id: 'batches',
    title: 'Shoot a whole collection in one batch',
    to: paths.batchGeneration,
    screen: 'Batch Generation',
    steps: [
      'Choose an item or a past result, its product type, the camera angles and a backdrop colour, then Add to Batch.',
      'Repeat for up to 20 entries, choose the size and aspect ratio, and Generate Batch: 1 credit per camera angle.',
      'Failed photos are refunded one by one; Retry failed makes just those again. Download all zips every photo with a manifest.',
    ],
  },
  {
    id: 'credits',
    title: 'Credits, receipts and refunds',
    to: paths.billing,
    screen: 'Billing',
    steps: [
      'Credits are prepaid at $0.10 each and never expire; new accounts get 5 free credits.',
      'Buy a pack or any amount on Billing; each purchase is listed under Receipts.',
      'Unused credits of a purchase can be refunded within 7 days. Usage shows where every credit went.',
    ],
  },
] as const;

export default function GuidesPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Guides" description="Every flow of the studio, step by step." />
      <nav aria-label="Guides" className="flex flex-wrap gap-2 text-sm">
        {GUIDES.map((guide) => (
          <a key={guide.id} href={`#${guide.id}`} className="rounded-full border border-slate-300 px-3 py-1 font-medium text-slate-800 hover:bg-slate-50">
            {guide.title}
          </a>
        ))}
      </nav>
      {GUIDES.map((guide) => (
        <Card key={guide.id} id={guide.id} className="scroll-mt-20">
          <CardHeader>
            <CardTitle>{guide.title}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            <ol className="list-decimal space-y-1.5 pl-5 text-sm text-slate-700">
              {guide.steps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
            <Link to={guide.to} className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline">
              Open {guide.screen} <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
