import { useMutation } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';

interface Row {
  id: number;
  code: string;
  enabled: boolean;
}

/**
 * Switching a product or channel on or off and deleting it, each after the user confirms: the same on
 * both catalogue lists. `kind` names the test ids, `deleteConfirm` the sentence that asks.
 */
export function useRowActions<T extends Row>({
  kind,
  nameOf,
  enable,
  remove,
  deleteConfirm,
  changed,
}: {
  kind: 'product' | 'channel';
  nameOf: (row: T) => string;
  enable: (id: number, enabled: boolean) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  deleteConfirm: (name: string) => string;
  changed: () => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const switching = useMutation({
    mutationFn: (row: T) => enable(row.id, !row.enabled),
    onSuccess: () => {
      message.success(t('common.saved'));
      changed();
    },
    onError: (error) => reportError(error),
  });
  const removing = useMutation({
    mutationFn: (row: T) => remove(row.id),
    onSuccess: () => {
      message.success(t('common.deleted'));
      changed();
    },
    onError: (error) => reportError(error),
  });
  const confirmStatus = (row: T) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('common.statusConfirm', {
        action: row.enabled ? t('common.disable') : t('common.enable'),
        name: nameOf(row),
      }),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: row.enabled, 'data-testid': `express-${kind}-status-ok` } as never,
      onOk: () => switching.mutateAsync(row).catch(() => undefined),
    });
  const confirmRemove = (row: T) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: deleteConfirm(`${row.code} · ${nameOf(row)}`),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true, 'data-testid': `express-${kind}-delete-ok` } as never,
      onOk: () => removing.mutateAsync(row).catch(() => undefined),
    });
  return {
    confirmStatus,
    confirmRemove,
    /** Whether this row's switch or delete is under way. */
    switchingRow: (row: T) => switching.isPending && switching.variables?.id === row.id,
    removingRow: (row: T) => removing.isPending && removing.variables?.id === row.id,
  };
}
