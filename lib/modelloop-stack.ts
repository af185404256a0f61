// The ModelLoop stack: wires the constructs together; each construct owns its own resources and settings.
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { providerEnvName, type ModelLoopConfig, type ProviderPort } from './config.js';
import { Auth } from './constructs/auth.js';
import { Data } from './constructs/data.js';
import { FunctionFactory } from './constructs/function-factory.js';
import { HttpApi } from './constructs/http-api.js';
import { PricingTierSeed } from './constructs/pricing-tier-seed.js';
import { Realtime } from './constructs/realtime.js';
import { Storage } from './constructs/storage.js';

export interface ModelLoopStackProps extends StackProps {
  config: ModelLoopConfig;
}

export class ModelLoopStack extends Stack {
  readonly auth: Auth;
  readonly data: Data;
  readonly storage: Storage;
  readonly functions: FunctionFactory;
  readonly httpApi: HttpApi;
  readonly realtime: Realtime;

  constructor(scope: Construct, id: string, props: ModelLoopStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.auth = new Auth(this, 'Auth', {
      stage: config.stage,
      webOrigins: config.webOrigins,
      google: config.google,
      domainPrefix: config.authDomainPrefix,
      retain: config.retainData,
    });
    this.data = new Data(this, 'Data', { retain: config.retainData });
    this.storage = new Storage(this, 'Storage', { webOrigins: config.webOrigins, retain: config.retainData });
    new PricingTierSeed(this, 'PricingTierSeed', { table: this.data.tables.pricingTiers });

    this.functions = new FunctionFactory({
      tables: this.data.tables,
      buckets: this.storage.buckets,
      environment: Object.fromEntries(
        (Object.entries(config.providers) as [ProviderPort, string][]).map(([port, adapter]) => [providerEnvName(port), adapter]),
      ),
    });
    this.httpApi = new HttpApi(this, 'HttpApi', {
      functions: this.functions,
      issuer: this.auth.issuer,
      audience: this.auth.webClient.userPoolClientId,
      webOrigins: config.webOrigins,
      routeEnvironment: config.testPayments ? { 'purchase-credits': { TEST_PAYMENTS: 'enabled' } } : {},
    });
    this.realtime = new Realtime(this, 'Realtime', {
      functions: this.functions,
      tables: this.data.tables,
      issuer: this.auth.issuer,
      audience: this.auth.webClient.userPoolClientId,
    });

    new CfnOutput(this, 'Region', { value: this.region });
    new CfnOutput(this, 'UserPoolId', { value: this.auth.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.auth.webClient.userPoolClientId });
    if (this.auth.domain) {
      new CfnOutput(this, 'AuthDomain', { value: `${this.auth.domain.domainName}.auth.${this.region}.amazoncognito.com` });
    }
    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.url });
    new CfnOutput(this, 'WebSocketUrl', { value: this.realtime.url });
  }
}
