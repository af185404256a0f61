import { ACCOUNT_MESSAGES } from '@contracts/account';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Input, Label } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useSession, useUser } from '@/lib/session-context';
import { deleteAccount } from './api';

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Delete Account: confirmed by typing the account's e-mail address. The server deletes everything in a workflow that
 * finishes on its own; once it has started, this browser signs out.
 */
export function DangerZone({ email }: { email?: string }) {
  const user = useUser();
  const session = useSession();
  const address = email || user.email;
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    mutationFn: () => deleteAccount(typed),
    onSuccess: async () => {
      setOpen(false);
      await session.signOut();
      toast.success('Account deleted', { description: 'Your account and your data are being deleted.' });
    },
    onError: (error) => toast.error('Delete Account failed', { description: error instanceof Error ? error.message : 'Please try again.' }),
  });
  const confirmed = sameAddress(typed, address);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirmed && !remove.isPending) remove.mutate();
  };

  return (
    <section id="danger-zone" aria-labelledby="danger-title">
      <Card className="border-red-200">
        <CardHeader>
          <CardTitle id="danger-title" className="text-red-700">
            Danger Zone
          </CardTitle>
          <CardDescription>Deleting your account removes your images, videos and remaining credits for good.</CardDescription>
        </CardHeader>
        <CardContent>
          <Dialog
            open={open}
            onOpenChange={(next) => {
              setOpen(next);
              if (!next) setTyped('');
            }}
          >
            <DialogTrigger asChild>
              <Button variant="destructive">Delete Account</Button>
            </DialogTrigger>
            <DialogContent
              role="alertdialog"
              title="Are you absolutely sure?"
              description="This action cannot be undone. It will permanently delete your account, your clothing items, generations, videos and every uploaded file, and your remaining credits."
            >
              <form onSubmit={submit} className="mt-4 space-y-4">
                <p className="text-sm text-slate-600">{ACCOUNT_MESSAGES.ledgerKept}</p>
                <div>
                  <Label htmlFor="delete-confirm-email">
                    Type <span className="font-semibold wrap-anywhere">{address}</span> to confirm
                  </Label>
                  <Input
                    id="delete-confirm-email"
                    type="email"
                    autoComplete="off"
                    value={typed}
                    onChange={(event) => setTyped(event.target.value)}
                  />
                </div>
                <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                  <DialogClose asChild>
                    <Button type="button" variant="outline">
                      Cancel
                    </Button>
                  </DialogClose>
                  <Button type="submit" variant="destructive" disabled={!confirmed || remove.isPending}>
                    {remove.isPending && <Spinner className="h-4 w-4" label={null} />}
                    Delete Account
                  </Button>
                </div>
              </form>
            </DialogContent>
          </Dialog>
        </CardContent>
      </Card>
    </section>
  );
}
