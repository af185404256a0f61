// The HTTP API: one route and one function per entry of the shared route table (lambdas/routes.ts). Routes with
// auth 'user' require a verified ID token of the user pool (JWT authorizer); 'public' routes have no authorizer.
// The routes, their integrations and invoke permissions live in `routeScope` (the stack puts them in a nested stack:
// a route, its /v1 twin, an integration and a permission are most of what each route costs a stack); the API, its
// stage, authorizers and the functions stay beside the tables and buckets they are granted.
import { Duration, Validations } from 'aws-cdk-lib';
import {
  CorsHttpMethod,
  HttpApi as ApiGatewayHttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  type IHttpRouteAuthorizer,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer, HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { API_KEY_AUTH_CACHE_SECONDS, API_KEY_HEADER, PUBLIC_API_PREFIX } from '../../lambdas/contracts/api-keys.js';
import { HTTP_API_STAGE_THROTTLE } from '../../lambdas/contracts/aws-limits.js';
import { API_KEY_AUTHORIZER, CORS, ROUTES, type RouteDefinition } from '../../lambdas/routes.js';
import { routeFunctionSpec } from '../function-settings.js';
import type { FunctionFactory } from './function-factory.js';
import { pascalCase } from './names.js';

export type RouteHandler = (typeof ROUTES)[number]['handler'];

export interface HttpApiProps {
  functions: FunctionFactory;
  /** `iss` of the user pool's tokens. */
  issuer: string;
  /** The web client id: the `aud` of its ID tokens. */
  audience: string;
  /**
   * Other origins allowed by CORS. The web app itself calls the API same-origin, through its CloudFront distribution's
   * /api behaviour, and needs none; without any, the API answers no preflight at all.
   */
  webOrigins: string[];
  /** Extra environment for single route functions, by handler. */
  routeEnvironment?: Partial<Record<RouteHandler, Record<string, string>>>;
  /** Stage-wide request rate limits. */
  throttle?: ThrottleSettings;
  /**
   * Where the routes, their integrations and the functions' invoke permissions are created (a nested stack keeps them
   * out of the parent's 500 resources; each references the API, its authorizers and its function by parameter).
   */
  routeScope?: Construct;
}

/** The stage throttle the twin's gateway enforces too (one configuration for both hosts). */
const DEFAULT_THROTTLE: ThrottleSettings = HTTP_API_STAGE_THROTTLE;
/** The functions that hash API keys: they read the pepper. */
const PEPPER_READERS: readonly string[] = [API_KEY_AUTHORIZER.handler, 'create-api-key'];

export class HttpApi extends Construct {
  readonly api: ApiGatewayHttpApi;
  readonly url: string;
  readonly functions: Record<RouteHandler, NodejsFunction>;
  /** The public API's Lambda REQUEST authorizer (on every /v1 route but the OpenAPI document). */
  readonly apiKeyAuthorizer: NodejsFunction;

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);

    this.api = new ApiGatewayHttpApi(this, 'Api', {
      createDefaultStage: false,
      corsPreflight:
        props.webOrigins.length > 0
          ? {
              allowOrigins: props.webOrigins,
              allowMethods: CORS.allowMethods.map((method) => CorsHttpMethod[method]),
              allowHeaders: [...CORS.allowHeaders],
              maxAge: Duration.seconds(CORS.maxAgeSeconds),
            }
          : undefined,
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? DEFAULT_THROTTLE,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs) },
    });
    this.url = stage.url;

    const userAuthorizer = new HttpJwtAuthorizer('UserPool', props.issuer, { jwtAudience: [props.audience] });
    const noAuthorizer = new HttpNoneAuthorizer();

    // API keys are stored as SHA-256(pepper + key); the pepper is generated here and read once per cold start.
    // Rotating it would invalidate every key, so it is not rotated.
    const pepper = new Secret(this, 'ApiKeyPepper', {
      description: 'Pepper of the API keys hashes (rotating it invalidates every key).',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(pepper).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The pepper of stored API-key hashes: rotating it would invalidate every key; keys themselves are revocable.',
    });
    const pepperEnvironment = { API_KEY_PEPPER_SECRET: pepper.secretArn };
    this.apiKeyAuthorizer = props.functions.create(this, 'ApiKeyAuthorizeFunction', {
      handler: API_KEY_AUTHORIZER.handler,
      tables: API_KEY_AUTHORIZER.tables,
      environment: pepperEnvironment,
    });
    pepper.grantRead(this.apiKeyAuthorizer);
    // Simple responses, cached per x-api-key value: a revoked key works at most this long. HTTP API ANDs identity
    // sources, so the cache key is that one header (a Bearer-only request is refused by API Gateway with 401).
    const keyAuthorizer = new HttpLambdaAuthorizer('ApiKey', this.apiKeyAuthorizer, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [`$request.header.${API_KEY_HEADER}`],
      resultsCacheTtl: Duration.seconds(API_KEY_AUTH_CACHE_SECONDS),
    });

    const routeScope = props.routeScope ?? this;
    const addRoute = (path: string, method: HttpMethod, integration: HttpLambdaIntegration, authorizer: IHttpRouteAuthorizer): HttpRoute =>
      new HttpRoute(routeScope, `${method}${path}`, { httpApi: this.api, routeKey: HttpRouteKey.with(path, method), integration, authorizer });

    const routes: readonly RouteDefinition[] = ROUTES;
    const functions: Partial<Record<RouteHandler, NodejsFunction>> = {};
    for (const route of routes) {
      const handler = route.handler as RouteHandler;
      const fn = props.functions.create(this, `${pascalCase(handler)}Function`, {
        ...routeFunctionSpec(route),
        environment: { ...props.routeEnvironment?.[handler], ...(PEPPER_READERS.includes(handler) ? pepperEnvironment : {}) },
      });
      functions[handler] = fn;
      if (PEPPER_READERS.includes(handler)) pepper.grantRead(fn);
      // One invoke permission per function for this API (not one per route): a function serves its route and its /v1 twin.
      const integration = new HttpLambdaIntegration(`${pascalCase(handler)}Integration`, fn, { scopePermissionToRoute: false });

      const authorizer: IHttpRouteAuthorizer = route.auth === 'user' ? userAuthorizer : noAuthorizer;
      const apiRoute = addRoute(route.path, HttpMethod[route.method], integration, authorizer);
      if (route.publicApi) {
        // The public API: the same function at /v1<path>, for callers with an API key.
        addRoute(`${PUBLIC_API_PREFIX}${route.path}`, HttpMethod[route.method], integration, keyAuthorizer);
      }
      if (route.auth === 'public') {
        Validations.of(apiRoute).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: `${route.method} ${route.path} is public by the route table (no user data; the landing and prices pages show it to signed-out visitors).`,
        });
      }
    }
    this.functions = functions as Record<RouteHandler, NodejsFunction>;
  }
}
