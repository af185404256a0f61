// All DynamoDB access for support tickets: one item per ticket in its owner's partition, the id starting with the
// creation time so the newest come first from one Query.
import { randomBytes } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MAIL_STATUSES, Ticket } from '../contracts/support.js';
import { dynamo, queryAll } from './dynamo.js';
import { tableName } from './tables.js';

const table = () => tableName('tickets');

export interface TicketRecord extends Ticket {
  user_id: string;
}

/** `tkt_<time>_<random>`: sorts by creation time. */
export const newTicketId = (createdAt: string) => `tkt_${Date.parse(createdAt).toString(36).padStart(9, '0')}_${randomBytes(6).toString('base64url')}`;

export async function putTicket(ticket: TicketRecord): Promise<void> {
  await dynamo.send(new PutCommand({ TableName: table(), Item: ticket, ConditionExpression: 'attribute_not_exists(id)' }));
}

/** Records whether the ticket's mail went. */
export async function setMailStatus(userId: string, id: string, status: (typeof MAIL_STATUSES)[number]): Promise<void> {
  await dynamo.send(
    new UpdateCommand({
      TableName: table(),
      Key: { user_id: userId, id },
      UpdateExpression: 'SET mail_status = :status',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeValues: { ':status': status },
    }),
  );
}

/** The user's tickets, newest first. */
export async function listTickets(userId: string): Promise<TicketRecord[]> {
  return queryAll<TicketRecord>({
    TableName: table(),
    KeyConditionExpression: 'user_id = :user',
    ExpressionAttributeValues: { ':user': userId },
    ScanIndexForward: false,
  });
}
