import { LABEL_FORMATS } from '@freight/contracts/carriers';
import { expressChannelSaveBody } from '@freight/contracts/express-channels';
import { Alert, AutoComplete, Col, Form, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { requiredRule } from '../../lib/form-rules.ts';
import type { ExpressChannel } from './api.ts';
import { carrierKindOf, serviceOptions, useCarrierAccounts } from './carrierAccounts.ts';
import { schemaRule } from './rules.ts';

/** The select's value for "own price tables" (the form holds null): account ids start at 1. */
const OWN_TABLES = 0;

/**
 * What prices a channel: the tenant's own tables, or one of its carrier accounts with the carrier's
 * service code. `saved` is the channel as stored, whose account the list may not hold (disabled, or the
 * user may not list accounts).
 */
export function PricedByFields({ saved }: { saved: ExpressChannel | null }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const accountId = Form.useWatch<number | null | undefined>('carrierAccountId', form) ?? null;
  const { mayList, accounts, loading } = useCarrierAccounts();
  const chosen = accounts.find((a) => a.id === accountId);
  const savedKind = saved && saved.carrierAccountId === accountId ? carrierKindOf(saved.provider) : null;
  const kind = chosen?.kind ?? savedKind;
  const kindName = (k: string) => t(`expressChannels.provider.${k}`);
  const pricedBy = t('expressChannels.pricedBy');
  const serviceCode = t('expressChannels.serviceCode');

  const options = [
    { value: OWN_TABLES, label: t('expressChannels.ownTables') },
    ...accounts.map((a) => ({
      value: a.id,
      label: `${a.label} · ${kindName(a.kind)}${a.enabled ? '' : ` (${t('common.disabled')})`}`,
      // A disabled account prices nothing; a channel that still names one shows it until changed.
      disabled: !a.enabled,
    })),
  ];
  if (accountId !== null && !chosen)
    options.push({ value: accountId, label: `${kind ? kindName(kind) : ''} #${accountId}`, disabled: true });
  const enabledAccounts = accounts.filter((a) => a.enabled).length;

  return (
    <Row gutter={16}>
      <Col xs={24} sm={12}>
        <Form.Item
          name="carrierAccountId"
          label={pricedBy}
          extra={
            !mayList
              ? t('expressChannels.accountsHidden')
              : !loading && enabledAccounts === 0
                ? t('expressChannels.noCarrierAccounts')
                : t('expressChannels.pricedByTip')
          }
          getValueProps={(value: number | null | undefined) => ({ value: value ?? OWN_TABLES })}
          normalize={(value: number) => (value === OWN_TABLES ? null : value)}
        >
          <Select
            loading={loading}
            disabled={!mayList}
            options={options}
            // A code of one kind means nothing to the other (UPS `03`, Karrio `ups:ups_ground`).
            onChange={(value: number) => {
              if (accounts.find((a) => a.id === value)?.kind !== kind)
                form.setFieldValue('carrierService', '');
            }}
            data-testid="express-channel-priced-by"
          />
        </Form.Item>
      </Col>
      {accountId === null ? null : (
        <Col xs={24} sm={12}>
          <Form.Item
            name="carrierService"
            label={serviceCode}
            extra={kind ? t(`expressChannels.serviceCodeTip.${kind}`) : null}
            rules={[
              requiredRule(serviceCode),
              schemaRule(expressChannelSaveBody.shape.carrierService, serviceCode),
            ]}
          >
            <AutoComplete
              options={kind ? serviceOptions(kind) : []}
              showSearch={{
                filterOption: (typed, option) =>
                  String(option?.label ?? '')
                    .toLowerCase()
                    .includes(typed.trim().toLowerCase()),
              }}
              maxLength={60}
              placeholder={kind ? serviceOptions(kind)[0]?.value : undefined}
              data-testid="express-channel-carrier-service"
            />
          </Form.Item>
        </Col>
      )}
      {accountId === null ? null : (
        <Col xs={24} sm={12}>
          <Form.Item
            name="carrierLabelFormat"
            label={t('expressChannels.labelFormat')}
            extra={t('expressChannels.labelFormatTip')}
          >
            <Select
              options={LABEL_FORMATS.map((format) => ({
                value: format,
                label: t(`expressChannels.labelFormat.${format}`),
              }))}
              data-testid="express-channel-label-format"
            />
          </Form.Item>
        </Col>
      )}
      {accountId === null ? null : (
        <Col span={24}>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('expressChannels.carrierPricedNote')}
            data-testid="express-channel-carrier-note"
          />
        </Col>
      )}
    </Row>
  );
}
