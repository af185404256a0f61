// The AWS limits the code can reach, each in one place with the document that sets it. The cloud enforces them; the
// twin enforces the same numbers (lib/local/gateway.ts, stepfunctions.ts, realtime.ts), and CDK reads the ones it
// configures (the stage throttle) from here, so both hosts refuse the same requests.

const MiB = 1024 * 1024;

/**
 * HTTP API: "Payload size 10 MB" and "Maximum integration timeout 30 seconds", neither can be increased.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html
 */
export const HTTP_API_PAYLOAD_BYTES = 10 * MiB;
export const HTTP_API_INTEGRATION_TIMEOUT_SECONDS = 30;

/**
 * Lambda Invoke: "For synchronous invocations, the maximum payload size is 6 MB" (the request, i.e. the whole event
 * JSON the HTTP API builds, and the response the handler returns).
 * https://docs.aws.amazon.com/lambda/latest/dg/API_Invoke.html and https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html
 */
export const LAMBDA_SYNC_PAYLOAD_BYTES = 6 * MiB;

/**
 * A function's own timeout when its route declares none (lib/constructs/function-factory.ts uses the same default);
 * the integration ends at whichever of the function's timeout and the HTTP API's 30 s comes first.
 */
export const DEFAULT_FUNCTION_TIMEOUT_SECONDS = 10;

/**
 * The HTTP API stage throttle (steady requests per second and burst) that CDK sets on the $default stage
 * (lib/constructs/http-api.ts) and the twin's gateway enforces.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-throttling.html
 */
export const HTTP_API_STAGE_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;

/**
 * What an HTTP API answers above its throttle: "Requests that exceed the throttling limits receive a 429 Too Many
 * Requests error response" (the throttling page above) with API Gateway's own body, `{"message":"Too Many Requests"}`
 * (as a throttled HTTP API stage answers: terraform-aws-modules/terraform-aws-apigateway-v2#13, 2020-12-28, read
 * 2026-11). HTTP APIs have no gateway responses to change it, so the cloud's 429 carries no `code`: the twin sends this
 * very body, and the web client gives a code-less 429 the code TOO_MANY_REQUESTS (web/src/lib/api.ts).
 */
export const HTTP_API_THROTTLED = { status: 429, body: { message: 'Too Many Requests' } } as const;

/**
 * Step Functions: "Maximum input or output size for a task, state, or execution: 256 KiB of data as a UTF-8 encoded
 * string"; a state over it fails the execution with States.DataLimitExceeded, a StartExecution input over it is refused
 * with InvalidExecutionInput.
 * https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html (and StateEnteredEventDetails.input: 262144)
 */
export const STEP_FUNCTIONS_PAYLOAD_BYTES = 262_144;

/**
 * WebSocket APIs: "Message payload size 128 KB" and "WebSocket frame size 32 KB", neither can be increased: "Due to the
 * WebSocket frame-size quota of 32 KB, a message larger than 32 KB must be split into multiple frames, each 32 KB or
 * smaller. This applies to @connections commands. If a larger message (or larger frame size) is received, the
 * connection is closed with code 1009." The management API refuses a POST over the message size with 413
 * PayloadTooLargeException.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-execution-service-websocket-limits-table.html
 * (read 2026-11)
 */
export const WEBSOCKET_MESSAGE_BYTES = 128 * 1024;
export const WEBSOCKET_FRAME_BYTES = 32 * 1024;
/** The close code of a frame or message over its size (RFC 6455 §7.4.1: 1009, "message too big"). */
export const WEBSOCKET_TOO_BIG_CLOSE_CODE = 1009;

/**
 * The codes the gateway's own refusals carry (the twin sends them, but for the throttle's, which it sends without a
 * code as the cloud does; the web client gives them to code-less cloud answers).
 */
export const GATEWAY_ERROR_CODES = {
  requestTooLarge: 'REQUEST_TOO_LARGE',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  responseTooLarge: 'RESPONSE_TOO_LARGE',
  functionTimeout: 'FUNCTION_TIMEOUT',
  integrationTimeout: 'INTEGRATION_TIMEOUT',
  throttled: 'TOO_MANY_REQUESTS',
} as const;

/**
 * What an HTTP API answers for each (a failed Lambda invocation, which an oversized response or the function's own
 * timeout is, is a 500; the 30 s integration timeout a 503), with the code the twin adds.
 */
export const GATEWAY_ERRORS = {
  [GATEWAY_ERROR_CODES.requestTooLarge]: { status: 413, error: 'Request Entity Too Large' },
  [GATEWAY_ERROR_CODES.payloadTooLarge]: { status: 413, error: 'Request Entity Too Large' },
  [GATEWAY_ERROR_CODES.responseTooLarge]: { status: 500, error: 'Internal Server Error' },
  [GATEWAY_ERROR_CODES.functionTimeout]: { status: 500, error: 'Internal Server Error' },
  [GATEWAY_ERROR_CODES.integrationTimeout]: { status: 503, error: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; error: string }>;

export type GatewayErrorCode = keyof typeof GATEWAY_ERRORS;
