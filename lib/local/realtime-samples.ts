// workflow-ended, the reconciler and the realtime functions as the developer tools see them: a schema of the event
// each handler's type declares, and a sample event that passes it.
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { ReconcilerInput } from '../../lambdas/contracts/operations.js';
import { SAMPLE_IDS } from '../../lambdas/contracts/route.js';
import type { ExecutionStatusChangeEvent } from '../../lambdas/handlers/workflow-ended.js';
import type { RealtimeHandler } from '../../lambdas/realtime-functions.js';
import type { RECONCILER_FUNCTION, WORKFLOW_ENDED_FUNCTION } from '../../lambdas/workflows.js';
import { SAMPLE_USER } from './sample-identity.js';
import { EXECUTION_INPUTS } from './task-samples.js';

export type OtherHandler = RealtimeHandler | typeof WORKFLOW_ENDED_FUNCTION.handler | typeof RECONCILER_FUNCTION.handler;

export const OTHER_CONTRACTS: Record<OtherHandler, z.ZodType> = {
  reconciler: ReconcilerInput,
  'workflow-ended': z.object({
    source: z.literal('aws.states'),
    'detail-type': z.literal('Step Functions Execution Status Change'),
    detail: z.object({ executionArn: z.string(), stateMachineArn: z.string(), name: z.string(), status: z.string(), input: z.string().nullable() }),
  }),
  'ws-authorize': z.object({ type: z.literal('REQUEST'), methodArn: z.string(), queryStringParameters: z.object({ token: z.string().min(1) }) }),
  'ws-connect': z.object({ requestContext: z.object({ routeKey: z.literal('$connect'), connectionId: z.string().min(1), authorizer: z.object({ userId: z.string().min(1) }) }) }),
  'ws-disconnect': z.object({ requestContext: z.object({ routeKey: z.literal('$disconnect'), connectionId: z.string().min(1) }) }),
  'ws-fan-out': z.object({
    Records: z.array(z.object({ eventName: z.string(), eventSourceARN: z.string(), dynamodb: z.object({ Keys: z.record(z.string(), z.unknown()), SequenceNumber: z.string() }) })).min(1),
  }),
};

function webSocketContext(routeKey: '$connect' | '$disconnect', eventType: 'CONNECT' | 'DISCONNECT') {
  const now = Date.now();
  return {
    routeKey,
    eventType,
    extendedRequestId: randomUUID(),
    requestTime: new Date(now).toUTCString(),
    messageDirection: 'IN',
    stage: 'local',
    connectedAt: now,
    requestTimeEpoch: now,
    identity: { sourceIp: '127.0.0.1', userAgent: 'modelloop-invoke' },
    requestId: randomUUID(),
    domainName: 'localhost:5173',
    connectionId: 'c2FtcGxlLWNvbm4',
    apiId: 'local',
  };
}

export function sampleOtherEvent(name: OtherHandler, env: NodeJS.ProcessEnv): unknown {
  const region = env.AWS_REGION ?? 'us-east-1';
  switch (name) {
    case 'workflow-ended': {
      const stateMachineArn = env.WORKFLOW_VIDEO_ARN ?? `arn:aws:states:${region}:000000000000:stateMachine:modelloop-video`;
      const event: ExecutionStatusChangeEvent = {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Step Functions Execution Status Change',
        source: 'aws.states',
        account: '000000000000',
        time: new Date().toISOString(),
        region,
        resources: [`${stateMachineArn.replace(':stateMachine:', ':execution:')}:${SAMPLE_IDS.job}`],
        detail: {
          executionArn: `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${SAMPLE_IDS.job}`,
          stateMachineArn,
          name: SAMPLE_IDS.job,
          status: 'TIMED_OUT',
          input: JSON.stringify(EXECUTION_INPUTS.video),
        },
      };
      return event;
    }
    case 'reconciler':
      // What the schedule sends (an EventBridge Scheduled Event); the optional fields choose the twin's start criterion.
      return {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: '000000000000',
        time: new Date().toISOString(),
        region,
        resources: [`arn:aws:events:${region}:000000000000:rule/modelloop-reconciler`],
        detail: {},
      };
    case 'ws-authorize':
      return {
        type: 'REQUEST',
        methodArn: `arn:aws:execute-api:${region}:000000000000:local/local/$connect`,
        headers: { host: 'localhost:5173' },
        queryStringParameters: { token: '<a Cognito ID token: npm run invoke -- ws-authorize --as you@example.com>' },
        requestContext: webSocketContext('$connect', 'CONNECT'),
      };
    case 'ws-connect':
      return {
        headers: { host: 'localhost:5173' },
        isBase64Encoded: false,
        requestContext: { ...webSocketContext('$connect', 'CONNECT'), authorizer: { userId: SAMPLE_USER.sub, principalId: SAMPLE_USER.sub } },
      };
    case 'ws-disconnect':
      return {
        headers: { host: 'localhost:5173' },
        isBase64Encoded: false,
        requestContext: { ...webSocketContext('$disconnect', 'DISCONNECT'), disconnectStatusCode: 1000, disconnectReason: '' },
      };
    case 'ws-fan-out': {
      const table = env.TABLE_PROFILES ?? 'modelloop-profiles';
      return {
        Records: [
          {
            eventID: randomUUID(),
            eventName: 'MODIFY',
            eventVersion: '1.1',
            eventSource: 'aws:dynamodb',
            awsRegion: region,
            eventSourceARN: `arn:aws:dynamodb:${region}:000000000000:table/${table}/stream/2026-11-23T00:00:00.000`,
            dynamodb: {
              ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
              Keys: { id: { S: SAMPLE_USER.sub } },
              OldImage: { id: { S: SAMPLE_USER.sub }, current_credits: { N: '5' } },
              NewImage: { id: { S: SAMPLE_USER.sub }, current_credits: { N: '4' } },
              SequenceNumber: '100000000000000000001',
              SizeBytes: 64,
              StreamViewType: 'NEW_AND_OLD_IMAGES',
            },
          },
        ],
      };
    }
  }
}
