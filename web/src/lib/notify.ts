// Browser notifications when long work ends (a batch, a video) while the tab is hidden: opt-in, asked for from a
// button on the screen, never on load. Nothing is shown when the user has not allowed it or the tab is visible
// (the page's own toast says it then).
export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export function notificationPermission(): NotificationPermission | 'unsupported' {
  return notificationsSupported() ? Notification.permission : 'unsupported';
}

export async function askForNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (!notificationsSupported()) return 'unsupported';
  return Notification.requestPermission();
}

export function notifyWorkDone(body: string, title = 'ModelLoop'): void {
  if (!notificationsSupported() || Notification.permission !== 'granted' || document.visibilityState !== 'hidden') return;
  try {
    new Notification(title, { body, tag: 'modelloop-work-done' });
  } catch {
    // Some browsers only allow notifications from a service worker; the in-page toast still tells the user.
  }
}
