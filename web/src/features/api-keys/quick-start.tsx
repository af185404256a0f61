// The quick start: copy-ready curl examples against this deployment's real API base (from the runtime config).
import { GENERATION_UPLOAD_URL_PATH, INLINE_IMAGE_MAX_BYTES } from '@contracts/inline-image';
import { MB } from '@contracts/catalog';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { CopyButton } from './copy-button';

const INLINE_IMAGE_MAX_MB = INLINE_IMAGE_MAX_BYTES / MB;

export function quickStartExamples(apiBase: string): { title: string; code: string }[] {
  const api = `${apiBase.replace(/\/+$/, '')}/v1`;
  return [
    {
      title: '1. Set your key and the API base',
      code: `export ML_KEY=ml_your_key_here
export ML_API=${api}
curl -s "$ML_API/profile" -H "x-api-key: $ML_KEY"`,
    },
    {
      title: '2. Create a clothing item from a file (upload URL, PUT, register)',
      code: `UPLOAD=$(curl -s -X POST "$ML_API/clothing-items/upload-url" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" \\
  -d "{\\"fileName\\":\\"shirt.jpg\\",\\"contentType\\":\\"image/jpeg\\",\\"sizeBytes\\":$(wc -c < shirt.jpg)}")
mapfile -t PUT_HEADERS < <(jq -r '.headers | to_entries[] | "-H", "\\(.key): \\(.value)"' <<<"$UPLOAD")
curl -s -X PUT "$(jq -r .uploadUrl <<<"$UPLOAD")" "\${PUT_HEADERS[@]}" --data-binary @shirt.jpg
ITEM=$(curl -s -X POST "$ML_API/clothing-items" -H "x-api-key: $ML_KEY" -H "content-type: application/json" \\
  -d "{\\"imageKey\\":\\"$(jq -r .imageKey <<<"$UPLOAD")\\",\\"name\\":\\"Red T-shirt\\"}" | jq -r .id)`,
    },
    {
      title: '3. Generate an on-model photo (1 credit; the Idempotency-Key makes a retry safe)',
      code: `GEN=$(curl -s -X POST "$ML_API/generate-ai-image" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" -H "Idempotency-Key: $(uuidgen)" \\
  -d "{\\"clothingItemId\\":\\"$ITEM\\",\\"productType\\":\\"clothing\\",\\"prompt\\":\\"young female model, studio light\\"}" | jq -r .generationId)`,
    },
    {
      title: '4. Poll it until it is complete, then download it',
      code: `until [ "$(curl -s "$ML_API/generations/$GEN" -H "x-api-key: $ML_KEY" | jq -r .status)" != processing ]; do sleep 2; done
curl -s "$ML_API/generations/$GEN" -H "x-api-key: $ML_KEY" | jq -r .result_url | xargs curl -s -o on-model.png`,
    },
    {
      title: '5. Start a looping video from that photo and fetch it when done',
      code: `# The photo is named by its generation id. A file of your own: imageBase64 (base64, at most ${INLINE_IMAGE_MAX_MB} MB),
# or any larger file: POST ${GENERATION_UPLOAD_URL_PATH}, PUT it, then send {"imageKey": …}.
JOB=$(curl -s -X POST "$ML_API/generate-video" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" -H "Idempotency-Key: $(uuidgen)" \\
  -d "{\\"generationId\\":\\"$GEN\\",\\"prompt\\":\\"slow turn\\",\\"duration\\":5,\\"aspect_ratio\\":\\"9:16\\",\\"output_count\\":1}")
until [ "$(curl -s -X POST "$ML_API/poll-operation" -H "x-api-key: $ML_KEY" -H "content-type: application/json" \\
  -d "$(jq -c '{jobId, operationName}' <<<"$JOB")" | jq -r .done)" = true ]; do sleep 5; done
curl -s -X POST "$ML_API/get-video-url" -H "x-api-key: $ML_KEY" -H "content-type: application/json" \\
  -d "$(jq -c '{jobId}' <<<"$JOB")" | jq -r .signedUrl | xargs curl -s -o loop.mp4`,
    },
    {
      title: '6. Verify a webhook signature in Node (npm install standardwebhooks)',
      code: `import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.ML_WEBHOOK_SECRET); // whsec_… shown once when you add the endpoint
// rawBody: the request body exactly as received (a string or Buffer), before any JSON parsing.
const event = webhook.verify(rawBody, {
  'webhook-id': req.headers['webhook-id'],
  'webhook-timestamp': req.headers['webhook-timestamp'],
  'webhook-signature': req.headers['webhook-signature'],
}); // throws when the signature is wrong or the timestamp is more than 5 minutes off
console.log(event.type, event.data);`,
    },
  ];
}

export function QuickStart({ apiBase }: { apiBase: string }) {
  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-700">
        The examples use <code>curl</code> and <code>jq</code>. Send your key in the <code>x-api-key</code> header. Requests that spend credits need an{' '}
        <code>Idempotency-Key</code> header: a retry with the same key never charges twice.
      </p>
      {quickStartExamples(apiBase).map((example) => (
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
