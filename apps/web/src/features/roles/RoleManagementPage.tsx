import { useQuery } from '@tanstack/react-query';
import type { TreeDataNode } from 'antd';
import { App, Button, Drawer, Form, Input, Popconfirm, Space, Table, Tag, Tree } from 'antd';
import type React from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MenuButton, MenuNode } from '../../app/session.tsx';
import { isMenuNode } from '../../app/session.tsx';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, useServerList } from '../../components/list.tsx';
import { ApiError, applyFieldErrors, post } from '../../lib/http.ts';

interface RoleRow {
  id: number;
  code: string | null;
  name: string;
  nameEn: string;
  description: string;
  builtin: boolean;
  userCount: number;
}

const BUTTON_PREFIX = 'btn:';

/** Tree keys: menu items by id, buttons by `btn:<key>`. */
function toTree(nodes: (MenuNode | MenuButton)[], en: boolean): TreeDataNode[] {
  return nodes.map((node) =>
    isMenuNode(node)
      ? { key: node.id, title: en ? node.name_en : node.name, children: toTree(node.subList, en) }
      : {
          key: `${BUTTON_PREFIX}${node.component}`,
          title: `${en ? node.name_en : node.name} (${node.component})`,
          isLeaf: true,
        },
  );
}

type Key = React.Key;

/** Parent and children of every tree key, for the grant picker's own checking rules. */
function relations(
  nodes: TreeDataNode[],
  parent: Key | null = null,
  acc = { parent: new Map<Key, Key | null>(), children: new Map<Key, Key[]>() },
) {
  for (const node of nodes) {
    acc.parent.set(node.key, parent);
    acc.children.set(
      node.key,
      (node.children ?? []).map((c) => c.key),
    );
    relations(node.children ?? [], node.key, acc);
  }
  return acc;
}

/**
 * A page may be granted without all of its buttons, so the tree checks strictly: checking a node
 * brings its ancestors, unchecking one takes its descendants along.
 */
function toggle(checked: Key[], key: Key, on: boolean, rel: ReturnType<typeof relations>): Key[] {
  const next = new Set(checked);
  if (on) {
    for (let k: Key | null | undefined = key; k != null; k = rel.parent.get(k)) next.add(k);
  } else {
    const drop = (k: Key) => {
      next.delete(k);
      for (const c of rel.children.get(k) ?? []) drop(c);
    };
    drop(key);
  }
  return [...next];
}

export default function RoleManagementPage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message } = App.useApp();
  const [filterForm] = Form.useForm();
  const [filters, setFilters] = useState<{ keyword?: string }>({});
  const list = useServerList<RoleRow>('/admin/role/list', filters);
  const tree = useQuery({
    queryKey: ['role-menu-tree'],
    queryFn: () => post<MenuNode[]>('/admin/role/menuTree'),
  });
  const [editing, setEditing] = useState<RoleRow | 'new' | null>(null);
  const [checked, setChecked] = useState<Key[]>([]);
  const treeData = toTree(tree.data ?? [], en);
  const rel = relations(treeData);
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);

  const open = async (row: RoleRow | 'new') => {
    form.resetFields();
    setChecked([]);
    setEditing(row);
    if (row !== 'new') {
      const info = await post<{ role: RoleRow; menuIds: number[]; buttonKeys: string[] }>(
        '/admin/role/info',
        { id: row.id },
      );
      form.setFieldsValue({
        name: info.role.name,
        nameEn: info.role.nameEn,
        description: info.role.description,
      });
      setChecked([...info.menuIds, ...info.buttonKeys.map((k) => `${BUTTON_PREFIX}${k}`)]);
    }
  };

  const save = async () => {
    const values = await form.validateFields();
    const menuIds = checked.filter((k): k is number => typeof k === 'number');
    const buttonKeys = checked
      .filter((k): k is string => typeof k === 'string')
      .map((k) => k.slice(BUTTON_PREFIX.length));
    setSaving(true);
    try {
      await post('/admin/role/save', {
        ...values,
        id: editing !== 'new' ? editing?.id : undefined,
        menuIds,
        buttonKeys,
      });
      message.success(t('common.saved'));
      setEditing(null);
      void list.refetch();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (row: RoleRow) => {
    try {
      await post('/admin/role/delete', { id: row.id });
      message.success(t('common.deleted'));
      void list.refetch();
    } catch (error) {
      if (error instanceof ApiError) message.error(error.message);
    }
  };

  return (
    <div className="page-card">
      <FilterBar
        form={filterForm}
        onSearch={(v: { keyword?: string }) => {
          setFilters({ keyword: v.keyword || undefined });
          list.resetPage();
        }}
        extra={
          <Auth code="role:save">
            <Button type="primary" onClick={() => void open('new')} data-testid="role-new">
              {t('roles.new')}
            </Button>
          </Auth>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear />
        </Form.Item>
      </FilterBar>
      <Table<RoleRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: 800 }}
        columns={[
          {
            title: t('roles.name'),
            render: (_, r) => (
              <Space>
                {en ? r.nameEn : r.name}
                {r.builtin ? <Tag>{t('common.builtin')}</Tag> : null}
              </Space>
            ),
          },
          { title: t('roles.nameEn'), dataIndex: 'nameEn' },
          { title: t('roles.description'), dataIndex: 'description', ellipsis: true },
          { title: t('roles.users'), dataIndex: 'userCount', width: 90 },
          {
            title: t('common.actions'),
            width: 160,
            render: (_, row) => (
              <Space>
                <Auth code="role:save">
                  <Button
                    type="link"
                    size="small"
                    onClick={() => void open(row)}
                    data-testid={`role-edit-${row.id}`}
                  >
                    {t('common.edit')}
                  </Button>
                </Auth>
                <Auth code="role:delete">
                  {row.builtin ? null : (
                    <Popconfirm
                      title={t('common.deleteConfirm')}
                      okText={t('shell.ok')}
                      cancelText={t('shell.cancel')}
                      onConfirm={() => void remove(row)}
                    >
                      <Button type="link" size="small" danger>
                        {t('common.delete')}
                      </Button>
                    </Popconfirm>
                  )}
                </Auth>
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        title={editing === 'new' ? t('roles.new') : t('roles.edit')}
        open={editing !== null}
        width={560}
        onClose={() => setEditing(null)}
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="role-save">
              {t('common.save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="name"
            label={t('roles.name')}
            rules={[{ required: true, message: t('validation.required', { field: t('roles.name') }) }]}
          >
            <Input maxLength={50} data-testid="role-name" />
          </Form.Item>
          <Form.Item
            name="nameEn"
            label={t('roles.nameEn')}
            rules={[{ required: true, message: t('validation.required', { field: t('roles.nameEn') }) }]}
          >
            <Input maxLength={50} data-testid="role-name-en" />
          </Form.Item>
          <Form.Item name="description" label={t('roles.description')}>
            <Input.TextArea maxLength={200} rows={2} />
          </Form.Item>
          <Form.Item label={t('roles.grants')}>
            <Tree
              checkable
              checkStrictly
              checkedKeys={{ checked, halfChecked: [] }}
              onCheck={(_, info) => setChecked((list) => toggle(list, info.node.key, info.checked, rel))}
              treeData={treeData}
              style={{ maxHeight: 420, overflow: 'auto', border: '1px solid #f0f0f0', padding: 8 }}
            />
          </Form.Item>
        </Form>
      </Drawer>
    </div>
  );
}
