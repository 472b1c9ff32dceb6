import { DownloadOutlined } from '@ant-design/icons';
import { FREIGHT_CLASSES } from '@freight/contracts/truck-rating';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  Popover,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FilterBar, ListEmpty, useServerList } from '../../components/list.tsx';
import { SheetImportButton } from '../../components/SheetImport.tsx';
import { usePageQuery } from '../../context/page-context.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { ALL_PRODUCTS_KEY, LANE_LIST_URL, type Lane, laneApi, productApi, type TruckProduct } from './api.ts';
import { LaneDialog } from './LaneDialog.tsx';

/** `/freightRule`: pick a product, then edit its lanes one by one or as a whole workbook. */
export default function FreightRulesPage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const navigate = useNavigate();
  // The chosen product lives in the page's query, so the products page can link straight to it.
  const productId = Number(usePageQuery().get('productId')) || undefined;
  const products = useQuery({ queryKey: [ALL_PRODUCTS_KEY], queryFn: productApi.all });
  const product = products.data?.list.find((p) => p.id === productId);

  return (
    <div className="page-card">
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space wrap size={[16, 8]}>
          <Space>
            <span>{t('freightRules.product')}</span>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 360 }}
              placeholder={t('freightRules.chooseProduct')}
              loading={products.isLoading}
              value={product ? product.id : undefined}
              onChange={(id: number) => navigate(`/freightRule?productId=${id}`, { replace: true })}
              options={(products.data?.list ?? []).map((p) => ({
                value: p.id,
                label: `${p.code} · ${en ? p.nameEn : p.name} (${p.mode})`,
              }))}
              data-testid="rule-product"
            />
          </Space>
          {product ? (
            <Space size={4} wrap data-testid="rule-product-summary">
              <Tag color={product.mode === 'LTL' ? 'blue' : 'purple'}>{product.mode}</Tag>
              <Typography.Text type="secondary">
                {product.carrier} ·{' '}
                {t('truckProducts.days', { min: product.transitDaysMin, max: product.transitDaysMax })}
              </Typography.Text>
              {product.enabled ? null : <Tag>{t('common.disabled')}</Tag>}
            </Space>
          ) : null}
        </Space>
      </Card>
      {product ? (
        <Lanes key={product.id} product={product} />
      ) : products.data?.list.length === 0 ? (
        <Card>
          <ListEmpty
            text={t('freightRules.noProducts')}
            to="/productManagement"
            label={t('freightRules.noProductsAction')}
          />
        </Card>
      ) : (
        <Card>
          <Empty description={t('freightRules.chooseProduct')} />
        </Card>
      )}
    </div>
  );
}

const money = (value: string | undefined) => value ?? '-';
const SHOWN_CLASSES = 3;
const laneClasses = (lane: Lane) => FREIGHT_CLASSES.filter((cls) => lane.ltl?.rates[cls]);

/** Every class of a lane with its rate at each weight break, for the popover of the lanes table. */
function RateTable({ lane }: { lane: Lane }) {
  const { t } = useTranslation();
  const ltl = lane.ltl;
  if (!ltl) return null;
  return (
    <Table
      size="small"
      bordered
      pagination={false}
      rowKey="cls"
      dataSource={laneClasses(lane).map((cls) => ({ cls, rates: ltl.rates[cls] ?? [] }))}
      columns={[
        { title: t('tariff.class'), dataIndex: 'cls', width: 70 },
        ...ltl.breaks.map((weight, i) => ({
          key: String(weight),
          title: `${weight}+ lb`,
          align: 'right' as const,
          render: (_: unknown, row: { rates: string[] }) => row.rates[i] ?? '-',
        })),
      ]}
    />
  );
}

function Lanes({ product }: { product: TruckProduct }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const [filterForm] = Form.useForm<{ keyword?: string }>();
  const [keyword, setKeyword] = useState<string | undefined>();
  const list = useServerList<Lane>(LANE_LIST_URL, { productId: product.id, keyword });
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Lane | 'new' | null>(null);
  const ltl = product.mode === 'LTL';

  const remove = useMutation({
    mutationFn: (ids: number[]) => laneApi.remove(product.id, ids),
    onSuccess: () => {
      message.success(t('common.deleted'));
      setSelected([]);
      void list.refetch();
    },
    onError: (error) => reportError(error),
  });
  const confirmRemove = (ids: number[]) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('freightRules.deleteConfirm', { count: ids.length }),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'lanes-delete-ok' } as never,
      onOk: () => remove.mutateAsync(ids).catch(() => undefined),
    });

  const runExport = useMutation({
    mutationFn: () => laneApi.export(product),
    onError: (e) => reportError(e),
  });
  const template = useMutation({ mutationFn: laneApi.template, onError: (e) => reportError(e) });
  const ends: TableColumnsType<Lane> = [
    { title: t('tariff.origin'), dataIndex: 'origin', fixed: 'left', width: 100 },
    { title: t('tariff.destination'), dataIndex: 'destination', fixed: 'left', width: 100 },
  ];
  const ltlColumns: TableColumnsType<Lane> = [
    {
      title: t('freightRules.breaks'),
      width: 200,
      render: (_, r) => (r.ltl ? `${r.ltl.breaks.join(' / ')} lb` : '-'),
    },
    {
      title: t('freightRules.classRates'),
      width: 250,
      render: (_, r) =>
        r.ltl ? (
          <Popover content={<RateTable lane={r} />} title={`${r.origin} → ${r.destination}`}>
            <Space size={[4, 4]} wrap style={{ cursor: 'pointer' }} data-testid={`lane-classes-${r.id}`}>
              {/* A lane may rate all 18 classes: the cell shows the first few, the popover all. */}
              {laneClasses(r)
                .slice(0, SHOWN_CLASSES)
                .map((cls) => (
                  <Tag key={cls} style={{ marginInlineEnd: 0 }}>
                    {cls}: {r.ltl?.rates[cls]?.[0]}
                  </Tag>
                ))}
              {laneClasses(r).length > SHOWN_CLASSES ? (
                <Tag style={{ marginInlineEnd: 0 }}>+{laneClasses(r).length - SHOWN_CLASSES}</Tag>
              ) : null}
            </Space>
          </Popover>
        ) : (
          '-'
        ),
    },
    {
      title: t('tariff.minimumCharge'),
      align: 'right',
      width: 130,
      render: (_, r) => money(r.ltl?.minimumCharge),
    },
    {
      title: t('tariff.discountPercent'),
      align: 'right',
      width: 110,
      render: (_, r) => money(r.ltl?.discountPercent),
    },
    {
      title: t('tariff.fuelPercent'),
      align: 'right',
      width: 120,
      render: (_, r) => money(r.ltl?.fuelPercent),
    },
  ];
  const ftlColumns: TableColumnsType<Lane> = [
    { title: t('tariff.flatRate'), align: 'right', width: 110, render: (_, r) => money(r.ftl?.flatRate) },
    {
      title: t('tariff.ratePerMile'),
      align: 'right',
      width: 120,
      render: (_, r) => money(r.ftl?.ratePerMile),
    },
    { title: t('tariff.miles'), align: 'right', width: 90, render: (_, r) => r.ftl?.miles ?? '-' },
    {
      title: t('tariff.minimumCharge'),
      align: 'right',
      width: 120,
      render: (_, r) => money(r.ftl?.minimumCharge),
    },
    {
      title: t('tariff.fuelPercent'),
      align: 'right',
      width: 120,
      render: (_, r) => money(r.ftl?.fuelPercent),
    },
    { title: t('tariff.maxWeight'), align: 'right', width: 130, render: (_, r) => r.ftl?.maxWeight ?? '-' },
  ];
  const tail: TableColumnsType<Lane> = [
    {
      title: t('common.actions'),
      fixed: 'right',
      width: 120,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(r)}>
            {t('common.edit')}
          </Button>
          <Button type="link" size="small" danger onClick={() => confirmRemove([r.id])}>
            {t('common.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <FilterBar<{ keyword?: string }>
        form={filterForm}
        onSearch={(v) => {
          setKeyword(v.keyword?.trim() || undefined);
          list.resetPage();
        }}
        extra={
          <Space wrap>
            <Button
              icon={<DownloadOutlined />}
              loading={template.isPending}
              onClick={() => template.mutate()}
              data-testid="tariff-template"
            >
              {t('freightRules.template')}
            </Button>
            <SheetImportButton
              label={t('freightRules.import')}
              testId="tariff-import"
              confirm={(name) => t('freightRules.importConfirm', { name, product: product.code })}
              run={(file) => laneApi.import(product.id, file)}
              onDone={(done) => {
                message.success(t('tariff.imported', { count: done.imported }));
                setSelected([]);
                void list.refetch();
              }}
            />
            <Button
              loading={runExport.isPending}
              onClick={() => runExport.mutate()}
              data-testid="tariff-export"
            >
              {t('common.export')}
            </Button>
            <Button
              danger
              disabled={selected.length === 0}
              onClick={() => confirmRemove(selected)}
              data-testid="lanes-delete"
            >
              {t('freightRules.deleteSelected', { count: selected.length })}
            </Button>
            <Button type="primary" onClick={() => setEditing('new')} data-testid="lane-new">
              {t('freightRules.newLane')}
            </Button>
          </Space>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input
            allowClear
            maxLength={20}
            placeholder={t('freightRules.keywordTip')}
            style={{ width: 200 }}
          />
        </Form.Item>
      </FilterBar>
      <Table<Lane>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: ltl ? 1170 : 1050 }}
        className="nowrap-table"
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('freightRules.emptyLanes')}
              noMatch={keyword !== undefined && t('freightRules.noMatch')}
              action={
                <Button type="primary" onClick={() => setEditing('new')} data-testid="list-empty-action">
                  {t('freightRules.newLane')}
                </Button>
              }
            />
          ),
        }}
        columns={[...ends, ...(ltl ? ltlColumns : ftlColumns), ...tail]}
        data-testid="lanes-table"
      />
      {editing ? (
        <LaneDialog
          product={product}
          editing={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void list.refetch();
          }}
        />
      ) : null}
    </>
  );
}
