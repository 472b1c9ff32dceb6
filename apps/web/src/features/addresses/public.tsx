import { ADDRESS_TYPE_LABELS } from '@freight/contracts/addresses';
import { Button, type ButtonProps, Input, Modal, Table, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerList } from '../../components/list.tsx';
import { ADDRESS_LIST_URL, type AddressBookEntry } from './api.ts';

/**
 * A button that opens the address book and hands back the chosen entry; the quote form fills a pickup
 * or delivery address from it. `organisationId` narrows the book to one organisation (staff quoting for
 * a customer); without it the caller's visible book is listed.
 */
export function AddressPicker({
  onPick,
  organisationId,
  children,
  buttonProps,
}: {
  onPick: (address: AddressBookEntry) => void;
  organisationId?: number;
  children?: ReactNode;
  buttonProps?: ButtonProps;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="address-picker" {...buttonProps}>
        {children ?? t('addresses.pick')}
      </Button>
      {open ? (
        <AddressPickerDialog
          organisationId={organisationId}
          onClose={() => setOpen(false)}
          onPick={(address) => {
            setOpen(false);
            onPick(address);
          }}
        />
      ) : null}
    </>
  );
}

function AddressPickerDialog({
  organisationId,
  onPick,
  onClose,
}: {
  organisationId?: number;
  onPick: (address: AddressBookEntry) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const [keyword, setKeyword] = useState<string | undefined>();
  const list = useServerList<AddressBookEntry>(ADDRESS_LIST_URL, { keyword, organisationId });
  return (
    <Modal open width={900} title={t('addresses.pickTitle')} footer={null} onCancel={onClose} destroyOnHidden>
      <Input.Search
        allowClear
        placeholder={t('addresses.keywordTip')}
        style={{ width: 320, marginBottom: 12 }}
        onSearch={(value) => {
          setKeyword(value.trim() || undefined);
          list.resetPage();
        }}
      />
      <Table<AddressBookEntry>
        rowKey="id"
        size="small"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        onRow={(row) => ({ onDoubleClick: () => onPick(row) })}
        columns={[
          {
            title: t('addresses.name'),
            render: (_, r) => (
              <>
                {r.name}
                {r.isDefaultPickup ? (
                  <Tag color="orange" style={{ marginLeft: 6 }}>
                    {t('addresses.default')}
                  </Tag>
                ) : null}
              </>
            ),
          },
          {
            title: t('addresses.address'),
            render: (_, r) =>
              `${[r.address1, r.address2].filter(Boolean).join(', ')}, ${r.city}, ${r.state} ${r.zipcode}`,
          },
          { title: t('addresses.contact'), render: (_, r) => `${r.contact} +${r.dialCode} ${r.phone}` },
          { title: t('addresses.type'), render: (_, r) => ADDRESS_TYPE_LABELS[r.addressType][language] },
          {
            title: t('common.actions'),
            width: 80,
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => onPick(r)} data-testid={`address-pick-${r.id}`}>
                {t('addresses.choose')}
              </Button>
            ),
          },
        ]}
      />
    </Modal>
  );
}
