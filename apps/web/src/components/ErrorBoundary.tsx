import { Button, Result } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A lazy page whose file is gone (a new release replaced it) or that did not arrive in time. */
function isChunkLoadError(error: Error): boolean {
  return (
    error.name === 'ChunkLoadError' ||
    /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
      error.message,
    )
  );
}

function Failure({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation();
  const chunk = isChunkLoadError(error);
  return (
    <Result
      status={chunk ? 'warning' : 'error'}
      title={chunk ? t('boundary.chunkTitle') : t('boundary.title')}
      subTitle={chunk ? t('boundary.chunkBody') : error.message}
      extra={
        <Button type="primary" onClick={() => (chunk ? window.location.reload() : onRetry())}>
          {chunk ? t('boundary.reload') : t('boundary.retry')}
        </Button>
      }
    />
  );
}

/**
 * Keeps one broken page from blanking the whole portal: the page shows what went wrong and the error
 * goes to the error log (through the window's error event).
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    const reported = error instanceof Error ? error : new Error(String(error));
    if (info.componentStack) reported.stack = `${reported.stack ?? ''}\n${info.componentStack}`;
    globalThis.reportError(reported);
  }

  override render() {
    if (this.state.error)
      return <Failure error={this.state.error} onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
