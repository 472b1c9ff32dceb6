import { PlusOutlined } from '@ant-design/icons';
import { deliveryAreaBody } from '@freight/contracts/express-channels';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Form, Input, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import { listTableProps } from '../../components/list.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { ApiError } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';
import {
  ALL_CHANNELS_KEY,
  CHANNEL_INFO_KEY,
  channelApi,
  type DeliveryArea,
  type ExpressChannel,
  priceApi,
  type SurchargeTerms,
} from './api.ts';
import { schemaRule } from './rules.ts';

/** The API's limit on one list. */
const MAX_ZIPS = 50_000;
const ZIP = /^\d{5}$/;

/** ZIP codes as pasted: one a line or separated by commas (either width) or spaces; repeats once. */
export function parseZips(text: string | undefined): { zips: string[]; bad: string[] } {
  const tokens = (text ?? '')
    .split(/[\s,;\uFF0C\uFF1B\u3001]+/)
    .map((z) => z.trim())
    .filter(Boolean);
  const unique = [...new Set(tokens)];
  return { zips: unique.filter((z) => ZIP.test(z)), bad: unique.filter((z) => !ZIP.test(z)) };
}

/**
 * A channel's delivery-area lists (a surcharge per parcel to the ZIP codes on them; a parcel pays the
 * dearest list its ZIP is on): add one from pasted ZIP codes, or delete one.
 */
export function DeliveryAreas({ channel }: { channel: ExpressChannel }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const infoKey = [CHANNEL_INFO_KEY, channel.id];
  const info = useQuery({ queryKey: infoKey, queryFn: () => channelApi.info(channel.id) });
  const areas = (info.data ?? channel).surcharges.deliveryAreas;
  const [adding, setAdding] = useState(false);

  // The answer is the channel's surcharges as they now are: the lists come from it, the counts elsewhere.
  const applied = (terms: SurchargeTerms) => {
    queryClient.setQueryData<ExpressChannel>(infoKey, (old) => (old ? { ...old, surcharges: terms } : old));
    void queryClient.invalidateQueries({ queryKey: [ALL_CHANNELS_KEY] });
  };

  const remove = useMutation({
    mutationFn: (name: string) => priceApi.removeDeliveryArea({ channelId: channel.id, name }),
    onSuccess: (terms) => {
      message.success(t('common.deleted'));
      applied(terms);
    },
    onError: (error) => reportError(error),
  });
  const confirmRemove = (area: DeliveryArea) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('deliveryAreas.deleteConfirm', { name: area.name, count: area.zips }),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'delivery-area-delete-ok' } as never,
      onOk: () => remove.mutateAsync(area.name).catch(() => undefined),
    });

  return (
    <Card
      size="small"
      title={t('deliveryAreas.title')}
      extra={
        <Button
          type="primary"
          size="small"
          icon={<PlusOutlined />}
          onClick={() => setAdding(true)}
          data-testid="delivery-area-new"
        >
          {t('deliveryAreas.add')}
        </Button>
      }
      data-testid="delivery-areas"
    >
      <Typography.Paragraph type="secondary">{t('deliveryAreas.tip')}</Typography.Paragraph>
      <Table<DeliveryArea>
        rowKey="name"
        size="small"
        loading={info.isFetching || remove.isPending}
        dataSource={areas}
        pagination={false}
        {...listTableProps(420)}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('deliveryAreas.empty')} />,
        }}
        columns={[
          { title: t('deliveryAreas.name'), dataIndex: 'name' },
          {
            title: t('deliveryAreas.fee'),
            align: 'right',
            render: (_, r) => `${money(r.fee)} ${channel.currency}`,
          },
          { title: t('deliveryAreas.zipCount'), align: 'right', dataIndex: 'zips' },
          {
            title: t('common.actions'),
            render: (_, r) => (
              <Button
                type="link"
                size="small"
                danger
                onClick={() => confirmRemove(r)}
                data-testid={`delivery-area-delete-${r.name}`}
              >
                {t('common.delete')}
              </Button>
            ),
          },
        ]}
      />
      {adding ? (
        <DeliveryAreaDialog
          channel={channel}
          existing={areas.map((a) => a.name)}
          onClose={() => setAdding(false)}
          onSaved={(terms) => {
            setAdding(false);
            applied(terms);
          }}
        />
      ) : null}
    </Card>
  );
}

interface AreaForm {
  name: string;
  fee: string;
  zipsText: string;
}

const shape = deliveryAreaBody.shape;

function DeliveryAreaDialog({
  channel,
  existing,
  onClose,
  onSaved,
}: {
  channel: ExpressChannel;
  existing: string[];
  onClose: () => void;
  onSaved: (terms: SurchargeTerms) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const [form] = Form.useForm<AreaForm>();
  const parsed = parseZips(Form.useWatch('zipsText', form));
  const name = Form.useWatch('name', form);
  const L = {
    name: t('deliveryAreas.name'),
    fee: t('deliveryAreas.fee'),
    zips: t('deliveryAreas.zips'),
  };

  const save = useMutation({
    mutationFn: (v: AreaForm) =>
      priceApi.saveDeliveryArea({
        channelId: channel.id,
        name: v.name.trim(),
        fee: v.fee,
        zips: parseZips(v.zipsText).zips,
      }),
    onSuccess: (terms) => {
      message.success(t('common.saved'));
      onSaved(terms);
    },
    onError: (error) => {
      // The server names a refused ZIP code by its place in the list (`zips.12`); the form has one box.
      const fields =
        error instanceof ApiError
          ? error.fields.map((f) => ({
              name: f.field.startsWith('zips') ? 'zipsText' : f.field,
              errors: [f.message],
            }))
          : [];
      const known = fields.filter((f) => ['name', 'fee', 'zipsText'].includes(f.name));
      if (known.length > 0) form.setFields(known as never);
      else reportError(error);
    },
  });

  return (
    <Modal
      open
      width={560}
      title={`${t('deliveryAreas.add')} · ${channel.code}`}
      onCancel={onClose}
      onOk={() =>
        void form.validateFields().then(
          (v) => save.mutate(v),
          () => undefined,
        )
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'delivery-area-save' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="delivery-area-form">
        <Form.Item
          name="name"
          label={L.name}
          extra={
            existing.includes(name?.trim() ?? '') ? (
              <Typography.Text type="warning">{t('deliveryAreas.replaces')}</Typography.Text>
            ) : (
              t('deliveryAreas.nameTip')
            )
          }
          rules={[requiredRule(L.name), schemaRule(shape.name, L.name)]}
        >
          <Input maxLength={40} data-testid="delivery-area-name" />
        </Form.Item>
        <Form.Item
          name="fee"
          label={L.fee}
          extra={t('deliveryAreas.feeTip')}
          rules={[requiredRule(L.fee), schemaRule(shape.fee, L.fee)]}
        >
          <AmountInput suffix={channel.currency} />
        </Form.Item>
        <Form.Item
          name="zipsText"
          label={L.zips}
          extra={t('deliveryAreas.zipsTip', { count: parsed.zips.length })}
          rules={[
            requiredRule(L.zips),
            {
              validator: async (_, text: string | undefined) => {
                const { zips, bad } = parseZips(text);
                if (bad.length > 0)
                  throw new Error(
                    t('deliveryAreas.badZips', {
                      count: bad.length,
                      zips: bad.slice(0, 5).join(', ') + (bad.length > 5 ? ' …' : ''),
                    }),
                  );
                if (text?.trim() && zips.length === 0)
                  throw new Error(t('validation.required', { field: L.zips }));
                if (zips.length > MAX_ZIPS)
                  throw new Error(t('validation.max', { field: L.zips, max: MAX_ZIPS }));
              },
            },
          ]}
        >
          <Input.TextArea
            rows={8}
            placeholder={'90210\n90211, 90212'}
            style={{ fontFamily: 'monospace' }}
            data-testid="delivery-area-zips"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
