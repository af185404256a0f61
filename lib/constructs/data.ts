// One DynamoDB table per entry of the shared table definitions (lambdas/data/tables.ts), exposed by logical name.
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLES, type KeyAttribute, type TableDefinition, type TableName } from '../../lambdas/data/tables.js';
import { pascalCase } from './names.js';

export interface DataProps {
  /** Keep the tables (with deletion protection) when the stack is deleted. */
  retain: boolean;
}

export class Data extends Construct {
  readonly tables: Record<TableName, Table>;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const entries = Object.entries(TABLES) as [TableName, TableDefinition][];
    this.tables = Object.fromEntries(
      entries.map(([name, definition]) => [name, this.createTable(name, definition, props)]),
    ) as Record<TableName, Table>;
  }

  private createTable(name: TableName, definition: TableDefinition, props: DataProps): Table {
    const table = new Table(this, pascalCase(name), {
      partitionKey: attribute(definition.partitionKey),
      sortKey: definition.sortKey && attribute(definition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      stream: definition.stream ? StreamViewType.NEW_AND_OLD_IMAGES : undefined,
      timeToLiveAttribute: definition.ttlAttribute,
      deletionProtection: props.retain,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    for (const index of definition.localIndexes ?? []) {
      table.addLocalSecondaryIndex({ indexName: index.name, sortKey: attribute(index.sortKey) });
    }
    for (const index of definition.globalIndexes ?? []) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: attribute(index.partitionKey),
        sortKey: index.sortKey && attribute(index.sortKey),
        projectionType: index.keysOnly ? ProjectionType.KEYS_ONLY : ProjectionType.ALL,
      });
    }
    return table;
  }
}

function attribute(key: KeyAttribute): { name: string; type: AttributeType } {
  return { name: key.name, type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING };
}
