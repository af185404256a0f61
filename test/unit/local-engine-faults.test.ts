// The local engine's fault knob (the chaos suite's): parsed strictly, ignored inside a Lambda runtime, and each kind
// fails a call the way the workflows must survive.
import { describe, expect, it } from 'vitest';
import { faultRatesFromEnv, LOCAL_ENGINE_FAULTS_ENV, pickFault, withInjectedFaults } from '../../lambdas/providers/local-engine/faults.js';
import { ProviderError, type LocalEngine } from '../../lambdas/providers/ports.js';

const output = { bytes: Buffer.from('png'), contentType: 'image/png', model: 'local-engine' } as never;
const engine: LocalEngine = {
  onModelImage: { generate: async () => output },
  edit: { edit: async () => output },
  upscale: { upscale: async () => output },
  video: { start: async () => ({ operationName: 'op', model: 'local-engine' }), check: async () => ({ state: 'running' }) },
};

describe('MODELLOOP_LOCAL_ENGINE_FAULTS', () => {
  it('is off unless set, and off inside a Lambda runtime whatever it says', () => {
    expect(faultRatesFromEnv({})).toBeUndefined();
    expect(withInjectedFaults(engine, faultRatesFromEnv({}))).toBe(engine);
    expect(faultRatesFromEnv({ [LOCAL_ENGINE_FAULTS_ENV]: 'permanent=1', AWS_LAMBDA_FUNCTION_NAME: 'modelloop-process' })).toBeUndefined();
    expect(faultRatesFromEnv({ [LOCAL_ENGINE_FAULTS_ENV]: 'permanent=1', AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001' })).toBeUndefined();
  });

  it('reads rates and the slow delay, and refuses what it does not know', () => {
    expect(faultRatesFromEnv({ [LOCAL_ENGINE_FAULTS_ENV]: 'transient=0.1, crash=0.2,slowMs=50' })).toEqual({
      rates: { transient: 0.1, permanent: 0, slow: 0, crash: 0.2 },
      slowMs: 50,
    });
    expect(() => faultRatesFromEnv({ [LOCAL_ENGINE_FAULTS_ENV]: 'flaky=0.1' })).toThrow(/not 'flaky'/);
    expect(() => faultRatesFromEnv({ [LOCAL_ENGINE_FAULTS_ENV]: 'transient=-1' })).toThrow(/name=number/);
    expect(() => faultRatesFromEnv({ [LOCAL_ENGINE_FAULTS_ENV]: 'transient=0.6,permanent=0.6' })).toThrow(/more than 1/);
  });

  it('picks each kind by its share of the draws', () => {
    const rates = { transient: 0.1, permanent: 0.2, slow: 0.3, crash: 0.1 };
    expect([0, 0.15, 0.45, 0.65, 0.75].map((draw) => pickFault(rates, draw))).toEqual(['transient', 'permanent', 'slow', 'crash', undefined]);
  });

  it('fails calls as a provider (transient, permanent) or a crash would, and delays slow ones', async () => {
    const faulty = (kind: string, slowMs = 0) =>
      withInjectedFaults(engine, { rates: { transient: 0, permanent: 0, slow: 0, crash: 0, [kind]: 1 }, slowMs }, () => 0);
    await expect(faulty('transient').onModelImage.generate({} as never)).rejects.toMatchObject({ kind: 'transient' });
    await expect(faulty('permanent').edit.edit({} as never)).rejects.toBeInstanceOf(ProviderError);
    await expect(faulty('crash').video.start({} as never)).rejects.toBeInstanceOf(TypeError);
    const started = Date.now();
    await expect(faulty('slow', 120).upscale.upscale({} as never)).resolves.toBe(output);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(await faulty('crash').video.check('op')).toEqual({ state: 'running' });
  });
});
