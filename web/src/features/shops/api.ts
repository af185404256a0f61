// Server state of publishing to Shopify: the connected shops, a shop's products, the product each library item was
// last published to, and publications followed until they end. Publication queries start with 'publications', the
// realtime resource name, so each file's progress pushed by the server refreshes them; while the socket is down,
// a publication still publishing is polled.
import type { LiveResource } from '@contracts/api';
import {
  connectShopRoute,
  disconnectShopRoute,
  getPublicationRoute,
  listProductMatchesRoute,
  listShopsRoute,
  publishToShopRoute,
  searchShopProductsRoute,
  type PublishRequest,
} from '@contracts/shopify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from '@/lib/api';
import { pollWhileDown, useLiveConnection } from '@/lib/live-connection';
import { useSession, useUser } from '@/lib/session-context';

const PUBLICATIONS_ROOT = 'publications' satisfies LiveResource;
const PUBLICATION_POLL_MS = 2_000;

/** Whether this deployment publishes to Shopify (config.json). */
export const useShopifyEnabled = () => useSession().config.shopify === true;

const shopsKey = (userId: string) => ['shops', userId] as const;

export function useShops() {
  const { userId } = useUser();
  return useQuery({ queryKey: shopsKey(userId), queryFn: () => callRoute(listShopsRoute), enabled: useShopifyEnabled() });
}

/** Starts connecting a shop: the browser goes to Shopify's install screen (and comes back to Settings). */
export function useConnectShop() {
  return useMutation({
    mutationFn: (shop: string) => callRoute(connectShopRoute, { body: { shop } }),
    onSuccess: ({ authorizeUrl }) => window.location.assign(authorizeUrl),
  });
}

export function useDisconnectShop() {
  const { userId } = useUser();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shop: string) => callRoute(disconnectShopRoute, { params: { shop } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: shopsKey(userId) }),
  });
}

/** A shop's products matching `text` (title words or a SKU); the newest first when it is empty. */
export function useProductSearch(shop: string | undefined, text: string) {
  return useQuery({
    queryKey: ['shop-products', shop, text],
    queryFn: () => callRoute(searchShopProductsRoute, { params: { shop: shop! }, query: { query: text || undefined } }),
    enabled: shop !== undefined,
    staleTime: 30_000,
  });
}

export function useProductMatches(shop: string | undefined) {
  const { userId } = useUser();
  return useQuery({
    queryKey: [PUBLICATIONS_ROOT, userId, 'matches', shop],
    queryFn: () => callRoute(listProductMatchesRoute, { params: { shop: shop! } }),
    enabled: shop !== undefined,
  });
}

export function usePublish() {
  return useMutation({ mutationFn: (body: PublishRequest) => callRoute(publishToShopRoute, { body }) });
}

/** One publication, followed until it ends. */
export function usePublication(id: string | undefined) {
  const { userId } = useUser();
  const live = useLiveConnection();
  return useQuery({
    queryKey: [PUBLICATIONS_ROOT, userId, 'one', id],
    queryFn: () => callRoute(getPublicationRoute, { params: { id: id! } }),
    enabled: id !== undefined,
    refetchInterval: (query) => pollWhileDown(live, query.state.data?.status === 'publishing', PUBLICATION_POLL_MS),
  });
}
