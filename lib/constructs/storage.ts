// One S3 bucket per entry of BUCKETS: private, encrypted, TLS only, writable by the web app through presigned URLs
// (hence CORS for its origins), with server access logs in a separate log bucket.
//
// The CORS rules are not a property of the buckets: they name the web app's CloudFront domain, and the distribution
// already depends on the buckets (its CSP lists their endpoints), so a bucket property would be a dependency cycle.
// `allowWebOrigins` sets them at deploy time instead, with one s3:PutBucketCors call per bucket made by a custom
// resource that depends on both the bucket and the distribution, and is made again whenever the origins change.
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
  type BucketProps,
} from 'aws-cdk-lib/aws-s3';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId, type AwsSdkCall } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { ABANDONED_UPLOAD_DAYS, BUCKETS, UPLOAD_TAG, type BucketName } from '../../lambdas/data/tables.js';
import { pascalCase } from './names.js';

export interface StorageProps {
  /** Keep the buckets when the stack is deleted. */
  retain: boolean;
}

const ACCESS_LOG_RETENTION = Duration.days(90);
const INCOMPLETE_UPLOAD_EXPIRY = Duration.days(1);
/** What the browser does with presigned URLs: upload (PUT), show and download (GET, HEAD); ETag is read after a PUT. */
const CORS_METHODS = [HttpMethods.PUT, HttpMethods.GET, HttpMethods.HEAD];
const CORS_MAX_AGE_SECONDS = 3000;

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

  /**
   * Lets these origins (the web app's CloudFront URL and any extra ones) upload to and download from every data
   * bucket with presigned URLs: sets each bucket's CORS rules at deploy time (see the top of this file). Called once.
   */
  allowWebOrigins(origins: string[]): void {
    if (this.node.tryFindChild('Cors')) throw new Error('Storage.allowWebOrigins is called once, with every origin');
    const scope = new Construct(this, 'Cors');
    for (const [name, bucket] of Object.entries(this.buckets) as [BucketName, Bucket][]) {
      const putCors: AwsSdkCall = {
        service: 'S3',
        action: 'PutBucketCors',
        parameters: {
          Bucket: bucket.bucketName,
          CORSConfiguration: {
            CORSRules: [
              {
                AllowedOrigins: origins,
                AllowedMethods: CORS_METHODS,
                AllowedHeaders: ['*'],
                ExposeHeaders: ['ETag'],
                MaxAgeSeconds: CORS_MAX_AGE_SECONDS,
              },
            ],
          },
        },
        physicalResourceId: PhysicalResourceId.of(`${BUCKETS[name].logicalName}-cors`),
      };
      // The stack's one AwsCustomResource function (its role is the pricing seed's) gets this grant for this bucket
      // only; nothing is undone on delete: a kept bucket keeps its rules, a removed one takes them along.
      new AwsCustomResource(scope, pascalCase(name), {
        onCreate: putCors,
        onUpdate: putCors,
        policy: AwsCustomResourcePolicy.fromStatements([
          new PolicyStatement({ actions: ['s3:PutBucketCORS'], resources: [bucket.bucketArn] }),
        ]),
        installLatestAwsSdk: false,
      });
    }
  }
}
