import { BugOutlined } from '@ant-design/icons';
import { Button, Drawer, FloatButton, Table } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setHttpHooks } from '../lib/http.ts';

export interface ErrorEntry {
  id: number;
  route: string;
  message: string;
  details: string;
}

const ErrorLogContext = createContext<{ entries: ErrorEntry[]; clear(): void }>({
  entries: [],
  clear: () => undefined,
});

let nextId = 1;

/** Collects script errors, unhandled rejections and refused API calls for the floating error-log panel. */
export function ErrorLogProvider({ children }: { children: ReactNode }) {
  const [entries, setEntries] = useState<ErrorEntry[]>([]);
  const add = useCallback((message: string, details: string) => {
    setEntries((list) =>
      [{ id: nextId++, route: window.location.pathname, message, details }, ...list].slice(0, 100),
    );
  }, []);
  useEffect(() => {
    const onError = (event: ErrorEvent) => add(event.message, event.error?.stack ?? '');
    const onRejection = (event: PromiseRejectionEvent) =>
      add(String(event.reason?.message ?? event.reason), String(event.reason?.stack ?? ''));
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    setHttpHooks({ onApiError: (e) => add(e.message, `${e.url} ${e.details}`) });
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, [add]);
  const value = useMemo(() => ({ entries, clear: () => setEntries([]) }), [entries]);
  return <ErrorLogContext.Provider value={value}>{children}</ErrorLogContext.Provider>;
}

export function ErrorLogButton() {
  const { t } = useTranslation();
  const { entries, clear } = useContext(ErrorLogContext);
  const [open, setOpen] = useState(false);
  if (entries.length === 0 && !open) return null;
  return (
    <>
      <FloatButton
        icon={<BugOutlined />}
        badge={{ count: entries.length, size: 'small' }}
        tooltip={t('shell.errorLog')}
        style={{ insetInlineEnd: 24, insetBlockEnd: 96 }}
        onClick={() => setOpen(true)}
        data-testid="error-log-open"
      />
      <Drawer
        title={t('shell.errorLog')}
        open={open}
        size={720}
        onClose={() => setOpen(false)}
        data-testid="error-log-panel"
        extra={
          <Button danger onClick={clear} disabled={entries.length === 0} data-testid="error-log-clear">
            {t('shell.errorLogClear')}
          </Button>
        }
      >
        <Table
          rowKey="id"
          size="small"
          dataSource={entries}
          pagination={false}
          locale={{ emptyText: t('shell.errorLogEmpty') }}
          columns={[
            { title: t('shell.errorRoute'), dataIndex: 'route', width: 140 },
            { title: t('shell.errorMessage'), dataIndex: 'message', width: 220 },
            { title: t('shell.errorDetails'), dataIndex: 'details', ellipsis: true },
          ]}
        />
      </Drawer>
    </>
  );
}
