import { EXPRESS_SCOPES, type ExpressScope } from '@freight/contracts/express-rating';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FilterBar, filtersSet, ListEmpty, listTableProps, useServerList } from '../../components/list.tsx';
import { usePageQuery } from '../../context/page-context.tsx';
import { money } from '../../lib/money.ts';
import {
  ALL_CHANNELS_KEY,
  ALL_PRODUCTS_KEY,
  CHANNEL_INFO_KEY,
  CHANNEL_LIST_URL,
  channelApi,
  channelPricePath,
  type ExpressChannel,
  pricedByCarrier,
  productApi,
  zoneChartPath,
} from './api.ts';
import { ChannelDialog } from './ChannelDialog.tsx';
import { useCarrierAccounts } from './carrierAccounts.ts';
import { StatusAndUsers } from './StatusAndUsers.tsx';
import { UNITS } from './units.ts';
import { useRowActions } from './useRowActions.ts';
import { WorkbookActions } from './WorkbookActions.tsx';

interface Filters {
  keyword?: string;
  productId?: number;
  scope?: ExpressScope;
  enabled?: boolean;
}

const secondary = { color: '#999', fontSize: 12 } as const;

/** A name cut to a width the list can afford, shown whole on hover. */
function Cut({ text }: { text: string }) {
  return (
    <Typography.Text
      ellipsis={{ tooltip: text }}
      style={{ maxWidth: 130, color: 'inherit', fontSize: 'inherit' }}
    >
      {text}
    </Typography.Text>
  );
}

/**
 * `/expressChannelManag`: the carriers' services behind each express product, with their units, limits
 * and surcharges, and how far their zone chart and price table are filled. `?productId=` filters by one
 * product (the products page links here so).
 */
export default function ExpressChannelsPage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const queryProduct = Number(usePageQuery().get('productId')) || undefined;
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({ productId: queryProduct });
  const list = useServerList<ExpressChannel>(CHANNEL_LIST_URL, filters);
  const products = useQuery({ queryKey: [ALL_PRODUCTS_KEY], queryFn: productApi.all });
  const [editing, setEditing] = useState<ExpressChannel | 'new' | null>(null);
  const queryClient = useQueryClient();
  // Names the account behind a carrier-priced channel, for staff who may list the accounts.
  const carrierAccounts = useCarrierAccounts();
  const accountLabel = (c: ExpressChannel) =>
    carrierAccounts.accounts.find((a) => a.id === c.carrierAccountId)?.label;

  // The page stays alive behind its tab: a later link for another product filters anew.
  const [linkedProduct, setLinkedProduct] = useState(queryProduct);
  if (linkedProduct !== queryProduct) {
    setLinkedProduct(queryProduct);
    setFilters((f) => ({ ...f, productId: queryProduct }));
    list.resetPage();
  }
  useEffect(() => filterForm.setFieldValue('productId', queryProduct), [queryProduct, filterForm]);

  // The zone and price pages keep every channel for their pickers, and each channel's info.
  const changed = () => {
    void list.refetch();
    void queryClient.invalidateQueries({ queryKey: [ALL_CHANNELS_KEY] });
    void queryClient.invalidateQueries({ queryKey: [CHANNEL_INFO_KEY] });
    void queryClient.invalidateQueries({ queryKey: [ALL_PRODUCTS_KEY] });
  };
  const nameOf = (c: ExpressChannel) => (en ? c.nameEn : c.name);

  const { confirmStatus, confirmRemove, switchingRow, removingRow } = useRowActions<ExpressChannel>({
    kind: 'channel',
    nameOf,
    enable: channelApi.enable,
    remove: channelApi.remove,
    deleteConfirm: (name) => t('expressChannels.deleteConfirm', { name }),
    changed,
  });

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({
            keyword: v.keyword?.trim() || undefined,
            productId: v.productId,
            scope: v.scope,
            enabled: v.enabled,
          });
          list.resetPage();
        }}
        extra={
          <Space wrap>
            <Button type="primary" onClick={() => setEditing('new')} data-testid="express-channel-new">
              {t('expressChannels.new')}
            </Button>
            <WorkbookActions kind="channels" filters={filters} onImported={changed} />
          </Space>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear maxLength={100} placeholder={t('expressChannels.keywordTip')} />
        </Form.Item>
        <Form.Item name="productId" label={t('expressChannels.product')}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 220 }}
            placeholder={t('common.all')}
            loading={products.isLoading}
            options={(products.data?.list ?? []).map((p) => ({
              value: p.id,
              label: `${p.code} · ${en ? p.nameEn : p.name}`,
            }))}
            data-testid="express-channel-filter-product"
          />
        </Form.Item>
        <Form.Item name="scope" label={t('expressChannels.scope')}>
          <Select
            allowClear
            style={{ width: 120 }}
            placeholder={t('common.all')}
            options={EXPRESS_SCOPES.map((s) => ({ value: s, label: t(`expressChannels.scope.${s}`) }))}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('common.status')}>
          <Select
            allowClear
            style={{ width: 110 }}
            placeholder={t('common.all')}
            options={[
              { value: true, label: t('common.enabled') },
              { value: false, label: t('common.disabled') },
            ]}
          />
        </Form.Item>
      </FilterBar>
      <Table<ExpressChannel>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        // Sized by their content, the columns fit a 1440 px desktop in either language, so the pinned
        // actions cover no column: the scope rides with the code, transit with the carrier, who may use
        // a channel with its status, and long names are cut (whole on hover).
        {...listTableProps(0)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('expressChannels.emptyList')}
              noMatch={filtersSet(filters) && t('expressChannels.noMatch')}
              action={
                <Button type="primary" onClick={() => setEditing('new')} data-testid="list-empty-action">
                  {t('expressChannels.new')}
                </Button>
              }
            />
          ),
        }}
        data-testid="express-channels-table"
        columns={[
          {
            title: t('expressChannels.code'),
            fixed: 'left',
            render: (_, r) => (
              <div>
                {r.code}
                <div>
                  <Tag color={r.scope === 'domestic' ? 'blue' : 'purple'}>
                    {t(`expressChannels.scope.${r.scope}`)}
                  </Tag>
                </div>
              </div>
            ),
          },
          {
            title: t('expressChannels.name'),
            render: (_, r) => (
              <div>
                <Cut text={nameOf(r)} />
                <div style={secondary}>
                  <Cut text={en ? r.productNameEn : r.productName} />
                </div>
              </div>
            ),
          },
          {
            title: t('expressChannels.carrierService'),
            render: (_, r) => (
              <div>
                {r.carrier}
                <div style={secondary}>{r.service}</div>
                <div style={secondary}>
                  {t('expressChannels.days', { min: r.transitDaysMin, max: r.transitDaysMax })}
                </div>
                {pricedByCarrier(r) ? (
                  <Tooltip
                    title={t('expressChannels.providerTip', {
                      account: accountLabel(r) ?? `#${r.carrierAccountId}`,
                      service: r.carrierService,
                    })}
                  >
                    <Tag
                      color={r.provider === 'ups' ? 'gold' : 'cyan'}
                      style={{ marginTop: 4 }}
                      data-testid={`express-channel-provider-${r.code}`}
                    >
                      {t(`expressChannels.provider.${r.provider}`)}
                    </Tag>
                  </Tooltip>
                ) : null}
              </div>
            ),
          },
          {
            title: t('expressChannels.limits'),
            render: (_, r) => {
              const u = UNITS[r.unitSystem];
              return (
                <div>
                  {`${r.maxWeight} ${u.weight} · ${r.maxLength} ${u.length}`}
                  {/* One fact a line keeps the column narrow enough for the list to fit the screen. */}
                  <div style={secondary}>
                    {t('expressChannels.girthShort', { value: r.maxLengthGirth, unit: u.length })}
                  </div>
                  <div style={secondary}>{t('expressChannels.divisorShort', { value: r.dimDivisor })}</div>
                </div>
              );
            },
          },
          {
            title: t('expressChannels.surcharges'),
            render: (_, r) => (
              <div>
                {t('expressChannels.fuelShort', { percent: r.surcharges.fuelPercent })}
                <div style={secondary}>
                  {t('expressChannels.residentialShort', { fee: money(r.surcharges.residential, '$') })}
                </div>
                <div style={secondary}>
                  {t('expressChannels.deliveryAreasCount', { count: r.surcharges.deliveryAreas.length })}
                </div>
                {/* The carrier's rate names its own charges. */}
                {pricedByCarrier(r) ? <div style={secondary}>{t('expressChannels.tablesUnused')}</div> : null}
              </div>
            ),
          },
          {
            title: t('expressChannels.tables'),
            render: (_, r) => (
              <Space orientation="vertical" size={0}>
                <Link to={zoneChartPath(r.id)} data-testid={`express-channel-zones-${r.code}`}>
                  {t('expressChannels.zoneRowsCount', { count: r.zoneRows })}
                </Link>
                <Link to={channelPricePath(r.id)} data-testid={`express-channel-prices-${r.code}`}>
                  {t('expressChannels.priceZonesCount', { count: r.priceZones })}
                </Link>
                {pricedByCarrier(r) ? (
                  <Tooltip title={t('expressChannels.tablesUnusedTip')}>
                    <Typography.Text
                      type="secondary"
                      style={{ fontSize: 12 }}
                      data-testid={`express-channel-tables-unused-${r.code}`}
                    >
                      {t('expressChannels.tablesUnused')}
                    </Typography.Text>
                  </Tooltip>
                ) : null}
              </Space>
            ),
          },
          {
            title: t('expressChannels.statusOrganisations'),
            render: (_, r) => (
              <StatusAndUsers
                enabled={r.enabled}
                switching={switchingRow(r)}
                onToggle={() => confirmStatus(r)}
                organisationCount={r.organisationIds.length}
                testId={`express-channel-status-${r.code}`}
              />
            ),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setEditing(r)}
                  data-testid={`express-channel-edit-${r.code}`}
                >
                  {t('common.edit')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  danger
                  loading={removingRow(r)}
                  onClick={() => confirmRemove(r)}
                  data-testid={`express-channel-delete-${r.code}`}
                >
                  {t('common.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing ? (
        <ChannelDialog
          editing={editing}
          defaultProductId={filters.productId}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            changed();
          }}
        />
      ) : null}
    </div>
  );
}
