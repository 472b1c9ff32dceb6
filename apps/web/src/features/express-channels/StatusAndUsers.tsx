import { Space, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A product's or channel's status switch with who may use it beneath: one column for both keeps the
 * lists within a 1440 px desktop.
 */
export function StatusAndUsers({
  enabled,
  switching,
  onToggle,
  organisationCount,
  testId,
}: {
  enabled: boolean;
  switching: boolean;
  onToggle: () => void;
  organisationCount: number;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={4}>
      <Switch
        checked={enabled}
        loading={switching}
        onChange={onToggle}
        aria-label={t('common.status')}
        data-testid={testId}
      />
      {organisationCount === 0 ? (
        <Tag>{t('expressProducts.everyone')}</Tag>
      ) : (
        <Tag color="orange">{t('expressProducts.someOrganisations', { count: organisationCount })}</Tag>
      )}
    </Space>
  );
}
