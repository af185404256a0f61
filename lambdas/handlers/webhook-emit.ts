// Streams of generations, jobs and batches → a webhook event for each record that reached an end state.
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { emitFromStream } from '../domain/webhooks/events.js';

export const handler = (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => emitFromStream(event);
