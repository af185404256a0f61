// The sign-in flows of the cloud's app client against the twin's. The cloud signs in with SRP (the password never
// leaves the browser) and renews with refresh tokens; the twin's client allows exactly those plus USER_PASSWORD_AUTH,
// the one gap, because cognito-local has no USER_SRP_AUTH. A flow added to either side shows up here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWIN_AUTH_FLOWS, TWIN_ONLY_AUTH_FLOWS } from '../../lib/local/cognito-local.js';
import { resourcesOfType, synthModelLoop, type Synthesized } from './synth.js';

let synthesized: Synthesized;
beforeAll(() => void (synthesized = synthModelLoop({ nag: false })));
afterAll(() => synthesized?.dispose());

const cloudFlows = (): string[] => {
  const clients = resourcesOfType(synthesized.json, 'AWS::Cognito::UserPoolClient');
  expect(clients).toHaveLength(1);
  return [...(clients[0]![1].Properties!.ExplicitAuthFlows as string[])].sort();
};

describe('app client auth flows', () => {
  it('the cloud client allows SRP sign-in and refresh tokens, and no password sent in the clear', () => {
    expect(cloudFlows()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_SRP_AUTH']);
  });

  it("the twin's client allows the cloud's flows plus USER_PASSWORD_AUTH only, the stated gap", () => {
    const twinFlows = [...TWIN_AUTH_FLOWS].sort();
    const cloud = cloudFlows();
    expect(cloud.filter((flow) => !twinFlows.includes(flow as never))).toEqual([]);
    expect(twinFlows.filter((flow) => !cloud.includes(flow))).toEqual([...TWIN_ONLY_AUTH_FLOWS]);
  });
});
