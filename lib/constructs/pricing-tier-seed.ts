// Writes the stage's pricing tiers (PRICING_TIER_SEED with the stage's configured credits, lib/pricing.ts) into the
// pricing tiers table at deploy time, one PutItem per tier, so a changed price is rewritten on the next deploy. The
// local twin seeds the constant itself. The face-reference tier is active only where the stage's on-model provider
// charges more for a saved model's portrait (faceReferenceTierApplies).
import { RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, PhysicalResourceId, type AwsSdkCall } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { FACE_REFERENCE_TIER, faceReferenceTierApplies, PRICING_TIER_SEED } from '../../lambdas/contracts/catalog.js';
import type { TierPrices } from '../pricing.js';
import { pascalCase } from './names.js';

export interface PricingTierSeedProps {
  table: ITable;
  /** Credits per tier; the seed's own where absent. */
  prices?: Partial<TierPrices>;
  /** The stage's on-model adapter (imageProvider): whether the face-reference tier is sold. */
  imageProvider: string;
}

type AttributeValue = { S: string } | { N: string } | { BOOL: boolean };

export class PricingTierSeed extends Construct {
  constructor(scope: Construct, id: string, props: PricingTierSeedProps) {
    super(scope, id);

    // One role and log group for the stack's AwsCustomResource function: no managed policy, and it may only put items
    // into this table and write its own logs.
    const role = new Role(this, 'WriterRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [props.table.tableArn] }));
    const logGroup = new LogGroup(this, 'WriterLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    logGroup.grantWrite(role);

    const isActive = (id: string) => id !== FACE_REFERENCE_TIER || faceReferenceTierApplies(props.imageProvider);
    for (const tier of PRICING_TIER_SEED) {
      const putTier: AwsSdkCall = {
        service: 'DynamoDB',
        action: 'PutItem',
        parameters: { TableName: props.table.tableName, Item: toItem({ ...tier, credits_cost: props.prices?.[tier.id] ?? tier.credits_cost, is_active: isActive(tier.id) }) },
        physicalResourceId: PhysicalResourceId.of(`pricing-tier-${tier.id}`),
      };
      new AwsCustomResource(this, pascalCase(tier.id), {
        onCreate: putTier,
        onUpdate: putTier,
        role,
        logGroup,
        installLatestAwsSdk: false,
      });
    }
  }
}

function toItem(record: Record<string, string | number | boolean>): Record<string, AttributeValue> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]): [string, AttributeValue] => {
      if (typeof value === 'string') return [key, { S: value }];
      if (typeof value === 'number') return [key, { N: String(value) }];
      return [key, { BOOL: value }];
    }),
  );
}
