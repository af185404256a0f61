// The quick start's examples: copy-ready curl against this deployment's real API base (from the runtime config). A
// module of its own, free of React, so test/integration/public-api.test.ts runs the upload example as written.

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
      title: '5. Start a looping video from a photo and fetch it when done',
      code: `JOB=$(curl -s -X POST "$ML_API/generate-video" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" -H "Idempotency-Key: $(uuidgen)" \\
  -d "{\\"imageBase64\\":\\"$(base64 -w0 on-model.png)\\",\\"prompt\\":\\"slow turn\\",\\"duration\\":5,\\"aspect_ratio\\":\\"9:16\\",\\"output_count\\":1}")
until [ "$(curl -s -X POST "$ML_API/poll-operation" -H "x-api-key: $ML_KEY" -H "content-type: application/json" \\
  -d "$(jq -c '{jobId, operationName}' <<<"$JOB")" | jq -r .done)" = true ]; do sleep 5; done
curl -s -X POST "$ML_API/get-video-url" -H "x-api-key: $ML_KEY" -H "content-type: application/json" \\
  -d "$(jq -c '{jobId}' <<<"$JOB")" | jq -r .signedUrl | xargs curl -s -o loop.mp4`,
    },
    {
      title: '6. Generate from a file without adding it to the library (upload URL, PUT, imageKey)',
      code: `UPLOAD=$(curl -s -X POST "$ML_API/generation-uploads/upload-url" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" \\
  -d "{\\"fileName\\":\\"product.jpg\\",\\"contentType\\":\\"image/jpeg\\",\\"sizeBytes\\":$(wc -c < product.jpg)}")
# The upload URL creates the file once: send exactly the headers it came with.
mapfile -t PUT_HEADERS < <(jq -r '.headers | to_entries[] | "-H", "\\(.key): \\(.value)"' <<<"$UPLOAD")
curl -s -f -X PUT "$(jq -r .uploadUrl <<<"$UPLOAD")" "\${PUT_HEADERS[@]}" --data-binary @product.jpg
GEN=$(curl -s -X POST "$ML_API/generate-ai-image" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \\
  -d "{\\"imageKey\\":\\"$(jq -r .imageKey <<<"$UPLOAD")\\",\\"productType\\":\\"clothing\\",\\"prompt\\":\\"young female model, studio light\\"}" | jq -r .generationId)
echo "$GEN"`,
    },
    {
      title: '7. Verify a webhook signature in Node (npm install standardwebhooks)',
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
