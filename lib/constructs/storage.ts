// One S3 bucket per entry of BUCKETS: private, encrypted, TLS only, writable by the web app through presigned URLs
// (hence CORS for its origins), with server access logs in a separate log bucket.
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
  type BucketProps,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ABANDONED_UPLOAD_DAYS, BUCKETS, UPLOAD_TAG, type BucketName } from '../../lambdas/data/tables.js';
import { pascalCase } from './names.js';

export interface StorageProps {
  /** Origins the browser uploads from and downloads to (presigned PUT/GET). */
  webOrigins: string[];
  /** Keep the buckets when the stack is deleted. */
  retain: boolean;
}

const ACCESS_LOG_RETENTION = Duration.days(90);
const INCOMPLETE_UPLOAD_EXPIRY = Duration.days(1);

export class Storage extends Construct {
  readonly buckets: Record<BucketName, Bucket>;
  readonly accessLogs: Bucket;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    // ACLs are disabled (bucket owner enforced), so log delivery must be granted by bucket policy, whatever the app's
    // feature flags say.
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    const removalPolicy = props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const privateBucket: BucketProps = {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy,
    };

    this.accessLogs = new Bucket(this, 'AccessLogs', {
      ...privateBucket,
      lifecycleRules: [{ expiration: ACCESS_LOG_RETENTION }],
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the server access log bucket of the other buckets; logging it into itself would log its own log deliveries.',
    });

    this.buckets = Object.fromEntries(
      (Object.entries(BUCKETS) as [BucketName, (typeof BUCKETS)[BucketName]][]).map(([name, { logicalName }]) => [
        name,
        new Bucket(this, pascalCase(name), {
          ...privateBucket,
          serverAccessLogsBucket: this.accessLogs,
          serverAccessLogsPrefix: `${logicalName}/`,
          cors: [
            {
              allowedOrigins: props.webOrigins,
              allowedMethods: [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD],
              allowedHeaders: ['*'],
              exposedHeaders: ['ETag'],
              maxAge: 3000,
            },
          ],
          lifecycleRules: [
            { abortIncompleteMultipartUploadAfter: INCOMPLETE_UPLOAD_EXPIRY },
            // Uploads are created tagged pending and tagged kept when a route takes them: what was never registered
            // or used is removed after a day (the twin runs the same rule as a sweep: lib/local/upload-sweep.ts).
            { id: 'abandoned-uploads', tagFilters: { [UPLOAD_TAG.key]: UPLOAD_TAG.pending }, expiration: Duration.days(ABANDONED_UPLOAD_DAYS) },
          ],
        }),
      ]),
    ) as Record<BucketName, Bucket>;
  }
}
