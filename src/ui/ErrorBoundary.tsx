import { Component, type ErrorInfo, type ReactNode } from 'react';
import { testIds } from './testIds';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /**
   * The way back. Injected by the composition root (src/main.tsx) because only platform code
   * touches `location`; tests pass a spy.
   */
  onReload: () => void;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/** Catches a render error anywhere below it and shows a message with a way back. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // The one place the UI logs: an uncaught render error is a bug worth seeing in the console.
    console.error('Delivery Lab crashed while rendering', error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return (
      <div role="alert" data-testid={testIds.errorBoundary}>
        <h1>Something went wrong</h1>
        <p>The page hit an unexpected error: {error.message}</p>
        <button type="button" data-testid={testIds.errorReload} onClick={this.props.onReload}>
          Reload
        </button>
      </div>
    );
  }
}
