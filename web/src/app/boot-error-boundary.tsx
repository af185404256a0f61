import { Component, type ReactNode } from 'react';

interface State {
  error?: Error;
}

/** Shown when the app cannot start: config.json missing or invalid, or a chunk failed to load. */
export class BootErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
        <h1 className="text-2xl font-bold text-slate-900">ModelLoop could not start</h1>
        <p className="text-slate-700">{this.state.error.message}</p>
        <button
          type="button"
          className="rounded-lg bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
          onClick={() => window.location.reload()}
        >
          Reload
        </button>
      </main>
    );
  }
}
