// Support tickets: "Your requests" (GET /support/tickets) and the form's create (POST), which reads the list again.
import { createSupportTicketRoute, listSupportTicketsRoute } from '@contracts/support';
import { type CreateTicketRequest } from '@contracts/support';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from '@/lib/api';
import { useLoadErrorToast } from '@/lib/load-error';
import { useUser } from '@/lib/session-context';

const ticketsKey = (userId: string) => ['support-tickets', userId] as const;

export function useTickets() {
  const user = useUser();
  const query = useQuery({ queryKey: ticketsKey(user.userId), queryFn: async () => (await callRoute(listSupportTicketsRoute)).items });
  useLoadErrorToast(query.error, 'Error', 'Failed to load your support requests');
  return query;
}

export function useCreateTicket() {
  const user = useUser();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTicketRequest) => callRoute(createSupportTicketRoute, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ticketsKey(user.userId) }),
  });
}
