// All DynamoDB access for Shopify shops (tables.ts `shops`). One item per shop domain holds its connection, so a
// shop belongs to one account at a time (a conditional put) and Shopify's webhooks, which name only the shop, find it
// with one GetItem. The tokens are stored sealed (domain/shopify/tokens.ts); a refresh replaces them only if nobody
// refreshed since it read them (token_version), because Shopify hands out a new refresh token with every refresh.
// Installs under way (`oauth#<state>`) and compliance requests (`compliance#<webhook id>`) live beside them.
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ConnectedShop } from '../contracts/shopify.js';
import { dynamo } from './dynamo.js';
import { isConditionFailed } from './dynamo-errors.js';
import { tableName } from './tables.js';

const table = () => tableName('shops');
const OAUTH_PREFIX = 'oauth#';
const COMPLIANCE_PREFIX = 'compliance#';
/** How long an install may take from "Connect Shopify" to Shopify's redirect back. */
export const OAUTH_STATE_SECONDS = 10 * 60;
/** How long a compliance request's receipt is kept. */
const COMPLIANCE_KEEP_SECONDS = 30 * 24 * 3600;

/** The sealed offline token and its refresh token, with when each stops working. */
export interface SealedTokens {
  access_token: string;
  access_token_expires_at?: string;
  refresh_token?: string;
  refresh_token_expires_at?: string;
}

/**
 * 'uninstalled': Shopify told us the app was removed; 'disconnected': the seller disconnected it. Either way the tokens
 * are gone; the item stays until shop/redact (48 hours after an uninstall) erases the shop's data, which it names.
 */
export type ShopStatus = ConnectedShop['status'] | 'disconnected';

export interface ShopRecord extends Partial<SealedTokens> {
  /** The shop's domain, `<handle>.myshopify.com`. */
  id: string;
  user_id: string;
  status: ShopStatus;
  name: string;
  scopes: string[];
  connected_at: string;
  /** When it stopped being connected. */
  ended_at?: string;
  /** Grows with every stored token: a refresh writes only over the tokens it read. */
  token_version: number;
}

export interface OAuthStateRecord {
  id: string;
  user_id: string;
  shop: string;
  expires_at: number;
}

export interface ComplianceRecord {
  id: string;
  topic: string;
  shop: string;
  received_at: string;
  /** What ModelLoop held of the request's subject and what it did. */
  outcome: string;
  expires_at: number;
}

export async function getShop(shop: string): Promise<ShopRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: table(), Key: { id: shop }, ConsistentRead: true }));
  return Item as ShopRecord | undefined;
}

/**
 * Stores a new connection of `record.user_id`: over nothing, over this user's own, or over one no longer connected.
 * False (nothing written) when the shop is connected to another account.
 */
export async function putConnection(record: ShopRecord): Promise<boolean> {
  try {
    await dynamo.send(
      new PutCommand({
        TableName: table(),
        Item: record,
        ConditionExpression: 'attribute_not_exists(id) OR user_id = :user OR #status <> :connected',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':user': record.user_id, ':connected': 'connected' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** The user's connections (not the installs under way), through by_user. */
export async function listUserShops(userId: string): Promise<ShopRecord[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({ TableName: table(), IndexName: 'by_user', KeyConditionExpression: 'user_id = :user', ExpressionAttributeValues: { ':user': userId } }),
  );
  const keys = Items.map((item) => String(item.id)).filter((id) => !id.startsWith(OAUTH_PREFIX));
  if (keys.length === 0) return [];
  const found: ShopRecord[] = [];
  for (let start = 0; start < keys.length; start += 100) {
    let pending: Record<string, { Keys: { id: string }[]; ConsistentRead: true }> | undefined = {
      [table()]: { Keys: keys.slice(start, start + 100).map((id) => ({ id })), ConsistentRead: true },
    };
    while (pending && Object.keys(pending).length > 0) {
      const answer = await dynamo.send(new BatchGetCommand({ RequestItems: pending }));
      found.push(...((answer.Responses?.[table()] ?? []) as ShopRecord[]));
      pending = answer.UnprocessedKeys as typeof pending;
    }
  }
  // The index is eventually consistent: a shop moved to another account since is not this user's.
  return found.filter((shop) => shop.user_id === userId).sort((a, b) => a.id.localeCompare(b.id));
}

/** Replaces the tokens if they are still the ones read at `version`; false when another refresh stored its own first. */
export async function replaceTokens(shop: string, version: number, tokens: SealedTokens): Promise<boolean> {
  const fields = { ...tokens, token_version: version + 1 };
  const names = Object.keys(fields) as (keyof typeof fields)[];
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { id: shop },
        UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
        ConditionExpression: 'token_version = :version AND #status = :connected',
        ExpressionAttributeNames: { ...Object.fromEntries(names.map((name) => [`#${name}`, name])), '#status': 'status' },
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((name) => [`:${name}`, fields[name]])), ':version': version, ':connected': 'connected' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/**
 * The app is gone from the shop (app/uninstalled: 'uninstalled', a connected shop only), or this user disconnected it
 * ('disconnected'): the tokens are deleted, the item kept for shop/redact. Undefined when nothing changed.
 */
export function endConnection(shop: string, status: 'uninstalled', at: string): Promise<ShopRecord | undefined>;
export function endConnection(shop: string, status: 'disconnected', at: string, userId: string): Promise<ShopRecord | undefined>;
export async function endConnection(shop: string, status: Exclude<ShopStatus, 'connected'>, at: string, userId?: string): Promise<ShopRecord | undefined> {
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: table(),
        Key: { id: shop },
        UpdateExpression: 'SET #status = :status, ended_at = :at ADD token_version :one REMOVE access_token, access_token_expires_at, refresh_token, refresh_token_expires_at',
        // Shopify's app/uninstalled also follows the seller's own disconnect: it ends only a connection still connected.
        ConditionExpression: status === 'uninstalled' ? '#status = :connected' : 'user_id = :user',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':at': at, ':one': 1, ...(status === 'uninstalled' ? { ':connected': 'connected' } : { ':user': userId }) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as ShopRecord;
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/** Deletes the shop's item (shop/redact). */
export async function deleteShop(shop: string): Promise<void> {
  await dynamo.send(new DeleteCommand({ TableName: table(), Key: { id: shop } }));
}

export async function putOAuthState(state: string, userId: string, shop: string, now = Date.now()): Promise<void> {
  const record: OAuthStateRecord = { id: `${OAUTH_PREFIX}${state}`, user_id: userId, shop, expires_at: Math.floor(now / 1000) + OAUTH_STATE_SECONDS };
  await dynamo.send(new PutCommand({ TableName: table(), Item: record }));
}

/** The install a state names, taken once (deleted as it is read); undefined when unknown, taken or expired. */
export async function takeOAuthState(state: string, now = Date.now()): Promise<OAuthStateRecord | undefined> {
  const { Attributes } = await dynamo.send(new DeleteCommand({ TableName: table(), Key: { id: `${OAUTH_PREFIX}${state}` }, ReturnValues: 'ALL_OLD' }));
  const record = Attributes as OAuthStateRecord | undefined;
  // TTL deletes lazily: an expired install is refused here, whatever the table still holds.
  return record && record.expires_at * 1000 > now ? record : undefined;
}

/** A compliance request's receipt, once per webhook id (Shopify may deliver a webhook more than once). */
export async function recordCompliance(record: Omit<ComplianceRecord, 'id' | 'expires_at'> & { webhookId: string }, now = Date.now()): Promise<void> {
  const { webhookId, ...fields } = record;
  const item: ComplianceRecord = { id: `${COMPLIANCE_PREFIX}${webhookId}`, ...fields, expires_at: Math.floor(now / 1000) + COMPLIANCE_KEEP_SECONDS };
  await dynamo.send(new PutCommand({ TableName: table(), Item: item }));
}

export async function getCompliance(webhookId: string): Promise<ComplianceRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: table(), Key: { id: `${COMPLIANCE_PREFIX}${webhookId}` }, ConsistentRead: true }));
  return Item as ComplianceRecord | undefined;
}
