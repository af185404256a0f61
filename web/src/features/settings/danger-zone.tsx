import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';

export function DangerZone() {
  const [open, setOpen] = useState(false);
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
          <Dialog open={open} onOpenChange={setOpen}>
            <DialogTrigger asChild>
              <Button variant="destructive">Delete Account</Button>
            </DialogTrigger>
            <DialogContent
              role="alertdialog"
              title="Are you absolutely sure?"
              description="This action cannot be undone. It will permanently delete your account and all of your data."
            >
              <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <DialogClose asChild>
                  <Button variant="outline">Cancel</Button>
                </DialogClose>
                <Button
                  variant="destructive"
                  onClick={() => {
                    setOpen(false);
                    toast.info('This feature is not yet implemented.');
                  }}
                >
                  Delete Account
                </Button>
              </div>
            </DialogContent>
          </Dialog>
        </CardContent>
      </Card>
    </section>
  );
}
