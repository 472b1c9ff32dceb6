import { BugOutlined } from '@ant-design/icons';
import { Button, Drawer, FloatButton, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ErrorEntry } from '../error-log.tsx';

/** The floating error-log button and its drawer; loaded only once something has gone wrong. */
export default function ErrorLogPanel(props: {
  entries: ErrorEntry[];
  clear(): void;
  open: boolean;
  setOpen(open: boolean): void;
}) {
  const { t } = useTranslation();
  const { entries, clear, open, setOpen } = props;
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
