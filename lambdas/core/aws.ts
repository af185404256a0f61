// AWS SDK clients, created once per container. Both hosts use the same code: the local twin only sets
// endpoints (AWS_ENDPOINT_URL_*) and S3_FORCE_PATH_STYLE in the environment.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';

export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

export function createS3Client(env: NodeJS.ProcessEnv = process.env): S3Client {
  return new S3Client({
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    // s3rver stores streamed bodies with their chunk framing otherwise (DESIGN §10); harmless on AWS.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export const s3 = createS3Client();
