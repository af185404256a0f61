// The quick start: copy-ready curl examples against this deployment's real API base (from the runtime config).
import { ScrollRegion } from '@/components/ui/scroll-region';
import { CopyButton } from './copy-button';
import { MB } from '@contracts/catalog';
import { GENERATION_UPLOAD_URL_PATH, INLINE_IMAGE_MAX_BYTES } from '@contracts/inline-image';
import { quickStartExamples } from './quick-start-examples';

const LIMITS = { inlineImageMaxMb: INLINE_IMAGE_MAX_BYTES / MB, uploadUrlPath: GENERATION_UPLOAD_URL_PATH };

export function QuickStart({ apiBase }: { apiBase: string }) {
  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-700">
        The examples use <code>curl</code> and <code>jq</code>. Send your key in the <code>x-api-key</code> header. Requests that spend credits need an{' '}
        <code>Idempotency-Key</code> header: a retry with the same key never charges twice.
      </p>
      {quickStartExamples(apiBase, LIMITS).map((example) => (
        <section key={example.title} aria-label={example.title} className="space-y-2">
          <div className="flex items-center justify-between gap-3">
            <h3 className="text-sm font-semibold text-slate-900">{example.title}</h3>
            <CopyButton text={example.code} label={`Copy: ${example.title}`} what="The example" />
          </div>
          <ScrollRegion label={example.title} className="rounded-lg bg-slate-900 p-4">
            <pre className="text-sm text-slate-100">
              <code>{example.code}</code>
            </pre>
          </ScrollRegion>
        </section>
      ))}
    </div>
  );
}
