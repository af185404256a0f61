// The quick start's examples: copy-ready curl against this deployment's real API base (from the runtime config). A
// module of its own, free of React, so test/integration/public-api-uploads.test.ts runs every shell step as written.
// They need bash, curl, jq and node (for a random Idempotency-Key: `uuidgen` is missing on a bare Debian), and say
// what went wrong when a call is refused instead of looping on, or stopping, in silence.

/** What the examples say of the API's limits: the caller passes the contracts' figures (this module imports nothing). */
export interface QuickStartLimits {
  /** The largest inline image, in MB. */
  inlineImageMaxMb: number;
  /** The path of the generation upload URL route. */
  uploadUrlPath: string;
}
/** A fresh Idempotency-Key from what every machine with Node has. */
const NEW_KEY = `$(node -p 'crypto.randomUUID()')`;

export interface QuickStartExample {
  title: string;
  code: string;
  /** A shell step (run by the test as written), or code of another language. */
  shell: boolean;
}

export function quickStartExamples(apiBase: string, { inlineImageMaxMb, uploadUrlPath }: QuickStartLimits): QuickStartExample[] {
  const api = `${apiBase.replace(/\/+$/, '')}/v1`;
  return [
    {
      title: '1. Set your key and the API base',
      shell: true,
      code: `export ML_KEY=ml_your_key_here
export ML_API=${api}
curl -s "$ML_API/profile" -H "x-api-key: $ML_KEY"`,
    },
    {
      title: '2. Create a clothing item from a file (upload URL, PUT, register)',
      shell: true,
      code: `UPLOAD=$(curl -s -X POST "$ML_API/clothing-items/upload-url" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" \\
  -d "{\\"fileName\\":\\"shirt.jpg\\",\\"contentType\\":\\"image/jpeg\\",\\"sizeBytes\\":$(wc -c < shirt.jpg)}")
# The upload URL creates the file once: send exactly the headers it came with.
mapfile -t PUT_HEADERS < <(jq -r '.headers | to_entries[] | "-H", "\\(.key): \\(.value)"' <<<"$UPLOAD")
curl -s -f -X PUT "$(jq -r .uploadUrl <<<"$UPLOAD")" "\${PUT_HEADERS[@]}" --data-binary @shirt.jpg
ITEM_ANSWER=$(curl -s -X POST "$ML_API/clothing-items" -H "x-api-key: $ML_KEY" -H "content-type: application/json" \\
  -d "{\\"imageKey\\":\\"$(jq -r .imageKey <<<"$UPLOAD")\\",\\"name\\":\\"Red T-shirt\\"}")
ITEM=$(jq -r '.id // empty' <<<"$ITEM_ANSWER")
[ -n "$ITEM" ] || echo "Not added: $ITEM_ANSWER" >&2`,
    },
    {
      title: '3. Generate an on-model photo (1 credit; the Idempotency-Key makes a retry safe)',
      shell: true,
      code: `GEN_ANSWER=$(curl -s -X POST "$ML_API/generate-ai-image" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" -H "Idempotency-Key: ${NEW_KEY}" \\
  -d "{\\"clothingItemId\\":\\"$ITEM\\",\\"productType\\":\\"clothing\\",\\"prompt\\":\\"young female model, studio light\\"}")
GEN=$(jq -r '.generationId // empty' <<<"$GEN_ANSWER")
[ -n "$GEN" ] || echo "Not started: $GEN_ANSWER" >&2`,
    },
    {
      title: '4. Poll it until it is complete, then download it',
      shell: true,
      code: `while GENERATION=$(curl -s "$ML_API/generations/$GEN" -H "x-api-key: $ML_KEY") &&
  [ "$(jq -r .status <<<"$GENERATION")" = processing ]; do sleep 2; done
if [ "$(jq -r .status <<<"$GENERATION")" = complete ]; then
  curl -s -o on-model.png "$(jq -r .result_url <<<"$GENERATION")"
else
  echo "No photo: $GENERATION" >&2
fi`,
    },
    {
      title: '5. Start a looping video from that photo and fetch it when done',
      shell: true,
      code: `# The photo is named by its generation id. A file of your own: imageBase64 (base64, at most ${inlineImageMaxMb} MB),
# or any larger file: POST ${uploadUrlPath}, PUT it, then send {"imageKey": …}.
JOB=$(curl -s -X POST "$ML_API/generate-video" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" -H "Idempotency-Key: ${NEW_KEY}" \\
  -d "{\\"generationId\\":\\"$GEN\\",\\"prompt\\":\\"slow turn\\",\\"duration\\":5,\\"aspect_ratio\\":\\"9:16\\",\\"output_count\\":1}")
while POLL=$(curl -s -X POST "$ML_API/poll-operation" -H "x-api-key: $ML_KEY" -H "content-type: application/json" \\
  -d "$(jq -c '{jobId, operationName}' <<<"$JOB")") && [ "$(jq -r .done <<<"$POLL")" = false ]; do sleep 5; done
if [ "$(jq -r .status <<<"$POLL")" = complete ]; then
  curl -s -X POST "$ML_API/get-video-url" -H "x-api-key: $ML_KEY" -H "content-type: application/json" \\
    -d "$(jq -c '{jobId}' <<<"$JOB")" | jq -r .signedUrl | xargs curl -s -o loop.mp4
else
  echo "No video: $JOB $POLL" >&2
fi`,
    },
    {
      title: '6. Generate from a file without adding it to the library (upload URL, PUT, imageKey)',
      shell: true,
      code: `UPLOAD=$(curl -s -X POST "$ML_API${uploadUrlPath}" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" \\
  -d "{\\"fileName\\":\\"product.jpg\\",\\"contentType\\":\\"image/jpeg\\",\\"sizeBytes\\":$(wc -c < product.jpg)}")
mapfile -t PUT_HEADERS < <(jq -r '.headers | to_entries[] | "-H", "\\(.key): \\(.value)"' <<<"$UPLOAD")
curl -s -f -X PUT "$(jq -r .uploadUrl <<<"$UPLOAD")" "\${PUT_HEADERS[@]}" --data-binary @product.jpg
GEN_ANSWER=$(curl -s -X POST "$ML_API/generate-ai-image" -H "x-api-key: $ML_KEY" \\
  -H "content-type: application/json" -H "Idempotency-Key: ${NEW_KEY}" \\
  -d "{\\"imageKey\\":\\"$(jq -r .imageKey <<<"$UPLOAD")\\",\\"productType\\":\\"clothing\\",\\"prompt\\":\\"young female model, studio light\\"}")
GEN=$(jq -r '.generationId // empty' <<<"$GEN_ANSWER")
[ -n "$GEN" ] && echo "$GEN" || echo "Not started: $GEN_ANSWER" >&2`,
    },
    {
      title: '7. Verify a webhook signature in Node (npm install standardwebhooks)',
      shell: false,
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
