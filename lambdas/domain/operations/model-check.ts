// Whether each model a stage calls is still served: the provider is asked, and its answer is read with the dated model
// tables (lambdas/providers/*-table via configured-models.ts). One line per model: served, missing, or shutting down on
// a date. `npm run providers:check` prints these lines; the daily model check in the cloud (lambdas/handlers/
// model-check.ts, on an EventBridge schedule) logs them and counts what is not served, which raises an alarm.
//
// What each provider offers for the question, read 2026-11-27:
//   Google   models.get: GET https://generativelanguage.googleapis.com/v1beta/models/{model} (x-goog-api-key) answers
//            the Model resource of a served id, 404 NOT_FOUND for one it does not serve ("... is no longer available"
//            for one shut down). The call @google/genai's `models.get` makes; made here with fetch, so the daily
//            check's function stays inside the lean bundle budget (the SDK alone is about 760 KB minified).
//   FASHN    no call lists or describes models (https://docs.fashn.ai; its one utility endpoint, GET /v1/credits,
//            "allows you to retrieve your current FASHN API credits balance"): the check confirms the key and the
//            balance, and reads each model's state from the table alone (said so on its line).
//   Bedrock  GetFoundationModel: "when you make a GetFoundationModel or ListFoundationModels call, the state of the
//            model will be shown in the modelLifecycle field" (ACTIVE, or LEGACY with its endOfLifeTime; "Model
//            lifecycle", https://docs.aws.amazon.com/bedrock/latest/userguide/model-lifecycle.html). A `us.` id is a
//            cross-region inference profile: its foundation model is asked.
import { secretsClient } from '../../providers/clients.js';
import type { ProviderConfig } from '../../providers/config.js';
import { configuredModels, MODEL_TABLES, type ModelSelection } from '../../providers/configured-models.js';
import { createApiKeyReader } from '../../providers/fashn/api-key.js';
import { googleApiKey } from '../../providers/google/api-key.js';
import { modelState, type ConfiguredModel } from '../../providers/model-lifecycle.js';

export type Availability = 'served' | 'missing' | 'shutting down' | 'unchecked';

export interface ModelLine {
  model: ConfiguredModel;
  availability: Availability;
  /** The shutdown date, when shutting down. */
  date?: string;
  replacement?: string;
  /** What the provider answered, or why it could not be asked. */
  detail: string;
}

/** A provider's answer for one id: served, not served (with its answer), or LEGACY with an end of life. */
export type ProviderAnswer = { served: true; endOfLife?: string } | { served: false; detail: string };

export interface ModelProbes {
  google?: (id: string) => Promise<ProviderAnswer>;
  /** FASHN's key and balance, once for every FASHN model. */
  fashnAccount?: () => Promise<{ ok: true; credits: number } | { ok: false; detail: string }>;
  bedrock?: (id: string) => Promise<ProviderAnswer>;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Reads one model's provider answer together with its table row. */
function lineOf(model: ConfiguredModel, answer: ProviderAnswer | undefined, detail: string, now: Date): ModelLine {
  const state = modelState(MODEL_TABLES[model.provider][model.id], now);
  if (answer && !answer.served) return { model, availability: 'missing', detail: answer.detail };
  if (state.state === 'unknown') return { model, availability: 'missing', detail: `not in the ${model.provider} model table` };
  if (state.state === 'shut-down' || state.state === 'shutting-down') {
    return { model, availability: 'shutting down', date: state.date, replacement: state.replacement, detail };
  }
  if (answer?.served && answer.endOfLife) return { model, availability: 'shutting down', date: answer.endOfLife, detail: `${detail}; the provider lists it as LEGACY` };
  return { model, availability: answer ? 'served' : 'unchecked', detail };
}

export async function checkModels(selection: ModelSelection, probes: ModelProbes, now = new Date()): Promise<ModelLine[]> {
  const lines: ModelLine[] = [];
  let fashn: Awaited<ReturnType<NonNullable<ModelProbes['fashnAccount']>>> | undefined;
  for (const model of configuredModels(selection)) {
    try {
      if (model.provider === 'fashn') {
        fashn ??= probes.fashnAccount ? await probes.fashnAccount() : { ok: false, detail: 'FASHN was not asked' };
        if (!fashn.ok) lines.push({ model, availability: 'missing', detail: fashn.detail });
        else lines.push(lineOf(model, { served: true }, `key accepted, ${fashn.credits} credits left; FASHN lists no models, so its state is the table's`, now));
        continue;
      }
      const probe = model.provider === 'google' ? probes.google : probes.bedrock;
      const answer = probe ? await probe(model.id) : undefined;
      lines.push(lineOf(model, answer, answer ? `${model.provider} serves it` : `${model.provider} was not asked`, now));
    } catch (error) {
      lines.push({ model, availability: 'unchecked', detail: `could not ask ${model.provider}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return lines;
}

/** Lines that need an operator: missing, shutting down, or not confirmed. */
export const notServed = (lines: readonly ModelLine[]): ModelLine[] => lines.filter((line) => line.availability !== 'served');

export function formatLine(line: ModelLine): string {
  const what = `${line.model.provider} ${line.model.id} (${line.model.setting})`;
  const state = line.availability === 'shutting down' ? `shutting down on ${line.date}${line.replacement ? `, use ${line.replacement}` : ''}` : line.availability;
  return `${state.padEnd(13)} ${what}: ${line.detail}`;
}

// ——— The probes, over the providers' HTTP APIs and the AWS SDK ———

const PROBE_TIMEOUT_MS = 15_000;

/** Google's models.get over fetch: served on 200, missing on 404 (with Google's words), an error otherwise. */
export function googleModelProbe(apiKey: () => Promise<string>, baseUrl = 'https://generativelanguage.googleapis.com'): (id: string) => Promise<ProviderAnswer> {
  return async (id) => {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/v1beta/models/${encodeURIComponent(id)}`, {
      headers: { 'x-goog-api-key': await apiKey() },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => null)) as { name?: unknown; error?: { message?: unknown } } | null;
    if (response.ok && typeof body?.name === 'string') return { served: true };
    if (response.status === 404) return { served: false, detail: `Google answered 404: ${String(body?.error?.message ?? 'not found').slice(0, 200)}` };
    throw new Error(`Google answered ${response.status} to models.get`);
  };
}

/** FASHN's GET /v1/credits: the key works and how many credits are left. */
export function fashnAccountProbe(apiUrl: string, apiKey: () => Promise<string>): () => Promise<{ ok: true; credits: number } | { ok: false; detail: string }> {
  return async () => {
    const base = apiUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
    const response = await fetch(`${base}/v1/credits`, { headers: { Authorization: `Bearer ${await apiKey()}` }, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const body = (await response.json().catch(() => null)) as { credits?: { total?: unknown }; error?: unknown } | null;
    if (response.ok && typeof body?.credits?.total === 'number') return { ok: true, credits: body.credits.total };
    if (response.status === 401) return { ok: false, detail: 'FASHN refused the API key (401 UnauthorizedAccess)' };
    throw new Error(`FASHN answered ${response.status} to GET /v1/credits`);
  };
}

/** Bedrock's GetFoundationModel: ACTIVE is served, LEGACY shuts down at its endOfLifeTime, not found is missing. */
export function bedrockModelProbe(region: string): (id: string) => Promise<ProviderAnswer> {
  let client: Promise<import('@aws-sdk/client-bedrock').BedrockClient> | undefined;
  return async (id) => {
    const sdk = await import('@aws-sdk/client-bedrock');
    client ??= Promise.resolve(new sdk.BedrockClient({ region }));
    const modelIdentifier = id.replace(/^(us|eu|apac|global)\./, '');
    try {
      const { modelDetails } = await (await client).send(new sdk.GetFoundationModelCommand({ modelIdentifier }));
      const lifecycle = modelDetails?.modelLifecycle;
      if (lifecycle?.status === 'LEGACY') return { served: true, endOfLife: lifecycle.endOfLifeTime ? day(lifecycle.endOfLifeTime) : 'an unannounced date' };
      return { served: true };
    } catch (error) {
      if (error instanceof sdk.ResourceNotFoundException) return { served: false, detail: `Bedrock does not offer ${modelIdentifier}` };
      throw error;
    }
  };
}

/** The probes a stage's provider settings call for, with the keys its settings name (only those). */
export function probesFor(config: ProviderConfig): ModelProbes {
  const probes: ModelProbes = {};
  const { google, fashn } = config;
  if (google) probes.google = googleModelProbe(googleApiKey(google), google.baseUrl);
  if (fashn) {
    const secretName = fashn.apiKeySecret;
    const key = fashn.apiKey ?? '';
    let reader: (() => Promise<string>) | undefined;
    const apiKey = secretName
      ? async () => (reader ??= createApiKeyReader(await secretsClient(), secretName))()
      : () => Promise.resolve(key);
    probes.fashnAccount = fashnAccountProbe(fashn.apiUrl, apiKey);
  }
  if (config.bedrockRegion) probes.bedrock = bedrockModelProbe(config.bedrockRegion);
  return probes;
}

/** The selection of models a provider configuration calls. */
export const selectionOf = (config: ProviderConfig): ModelSelection => ({
  providers: { image: config.image, edit: config.edit, upscale: config.upscale, video: config.video },
  ...(config.google ? { google: { imageModel: config.google.imageModel, textModel: config.google.textModel, videoModel: config.google.videoModel } } : {}),
});
