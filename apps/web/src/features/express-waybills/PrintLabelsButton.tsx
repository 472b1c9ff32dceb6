import { DownOutlined } from '@ant-design/icons';
import type { LabelFormat } from '@freight/contracts/express-waybills';
import { Button, type ButtonProps, Dropdown, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What the print button's choices print: the labels in a format, or the customs papers alone. */
export type PrintChoice = LabelFormat | 'customs';

/**
 * The print button with its formats beside it: the button prints the PDF as it always has, the arrow
 * offers the PDF or ZPL for thermal printers, and, for parcels crossing a border (`customs`), their
 * customs papers alone: a thermal printer takes labels only. `testId` stays the button's, so
 * `<testId>-formats`, `<testId>-pdf`, `<testId>-zpl` and `<testId>-customs` name the arrow and its choices.
 */
export function PrintLabelsButton({
  label,
  testId,
  onPrint,
  customs = false,
  type,
  size,
  loading,
}: {
  label: ReactNode;
  testId: string;
  onPrint: (choice: PrintChoice) => void;
  customs?: boolean;
} & Pick<ButtonProps, 'type' | 'size' | 'loading'>) {
  const { t } = useTranslation();
  return (
    <Space.Compact>
      <Button type={type} size={size} loading={loading} onClick={() => onPrint('pdf')} data-testid={testId}>
        {label}
      </Button>
      <Dropdown
        trigger={['click']}
        disabled={Boolean(loading)}
        menu={{
          items: [
            { key: 'pdf', label: <span data-testid={`${testId}-pdf`}>{t('waybill.printPdf')}</span> },
            { key: 'zpl', label: <span data-testid={`${testId}-zpl`}>{t('waybill.printZpl')}</span> },
            ...(customs
              ? [
                  {
                    key: 'customs',
                    label: <span data-testid={`${testId}-customs`}>{t('waybill.printCustoms')}</span>,
                  },
                ]
              : []),
          ],
          onClick: ({ key }) => onPrint(key as PrintChoice),
        }}
      >
        <Button
          type={type}
          size={size}
          icon={<DownOutlined />}
          aria-label={t('waybill.labelFormats')}
          title={t('waybill.labelFormats')}
          data-testid={`${testId}-formats`}
        />
      </Dropdown>
    </Space.Compact>
  );
}
