import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TreeDataNode } from 'antd';
import { App, Button, Drawer, Form, Input, Popconfirm, Space, Spin, Table, Tag, Tree } from 'antd';
import type React from 'react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, filtersSet, ListEmpty, listTableProps, useServerList } from '../../components/list.tsx';
import type { MenuButton, MenuNode } from '../../context/session.tsx';
import { isMenuNode, useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { ROLE_LIST_URL, type RoleRow, rolesApi } from './api.ts';

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
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const session = useSession();
  const [filterForm] = Form.useForm();
  const [filters, setFilters] = useState<{ keyword?: string }>({});
  const list = useServerList<RoleRow>(ROLE_LIST_URL, filters);
  const tree = useQuery({ queryKey: ['role-menu-tree'], queryFn: rolesApi.menuTree });
  const [editing, setEditing] = useState<RoleRow | 'new' | null>(null);
  const editingId = editing && editing !== 'new' ? editing.id : null;
  const grants = useQuery({
    queryKey: ['role-info', editingId],
    queryFn: () => rolesApi.info(editingId ?? 0),
    enabled: editingId !== null,
    // Always the role as stored now, and a fresh object each time so the form below is refilled.
    staleTime: 0,
    gcTime: 0,
    structuralSharing: false,
  });
  const [checked, setChecked] = useState<Key[]>([]);
  const treeData = useMemo(() => toTree(tree.data ?? [], en), [tree.data, en]);
  const rel = useMemo(() => relations(treeData), [treeData]);
  const [form] = Form.useForm();

  // The drawer's form is filled once the role's grants arrive.
  useEffect(() => {
    if (!grants.data) return;
    form.setFieldsValue({
      name: grants.data.role.name,
      nameEn: grants.data.role.nameEn,
      description: grants.data.role.description,
      descriptionEn: grants.data.role.descriptionEn,
    });
    setChecked([...grants.data.menuIds, ...grants.data.buttonKeys.map((k) => `${BUTTON_PREFIX}${k}`)]);
  }, [grants.data, form]);

  const afterChange = () => {
    void list.refetch();
    void queryClient.invalidateQueries({ queryKey: ['roles-all'] });
    // The signed-in user may hold the role just changed: their own menu and buttons follow.
    void session.refreshUser().catch(() => undefined);
  };

  const save = useMutation({
    mutationFn: rolesApi.save,
    onSuccess: () => {
      message.success(t('common.saved'));
      setEditing(null);
      afterChange();
    },
    onError: (error) => reportError(error, form),
  });

  const remove = useMutation({
    mutationFn: (row: RoleRow) => rolesApi.remove(row.id),
    onSuccess: () => {
      message.success(t('common.deleted'));
      afterChange();
    },
    onError: (error) => reportError(error),
  });

  const open = (row: RoleRow | 'new') => {
    form.resetFields();
    setChecked([]);
    setEditing(row);
  };

  const submit = () =>
    form.validateFields().then(
      (values: { name: string; nameEn: string; description?: string; descriptionEn?: string }) =>
        save.mutate({
          id: editingId ?? undefined,
          name: values.name,
          nameEn: values.nameEn,
          description: values.description ?? '',
          descriptionEn: values.descriptionEn ?? '',
          menuIds: checked.filter((k): k is number => typeof k === 'number'),
          buttonKeys: checked
            .filter((k): k is string => typeof k === 'string')
            .map((k) => k.slice(BUTTON_PREFIX.length)),
        }),
      () => undefined,
    );

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
            <Button type="primary" onClick={() => open('new')} data-testid="role-new">
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
        {...listTableProps(800)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('roles.emptyList')}
              noMatch={filtersSet(filters) && t('roles.noMatch')}
              action={
                <Auth code="role:save">
                  <Button type="primary" onClick={() => open('new')} data-testid="list-empty-action">
                    {t('roles.new')}
                  </Button>
                </Auth>
              }
            />
          ),
        }}
        columns={[
          {
            title: t('roles.name'),
            render: (_, r) => (
              <Space>
                <span data-testid="role-row-name">{en ? r.nameEn : r.name}</span>
                {r.builtin ? <Tag>{t('common.builtin')}</Tag> : null}
              </Space>
            ),
          },
          // Each name and description in the UI language; the other language is edited in the drawer.
          {
            title: t('roles.description'),
            ellipsis: true,
            render: (_, r) => (en ? r.descriptionEn || r.description : r.description),
          },
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
                    onClick={() => open(row)}
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
                      onConfirm={() => remove.mutate(row)}
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
        size={560}
        onClose={() => setEditing(null)}
        forceRender
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={save.isPending}
              disabled={grants.isFetching}
              onClick={() => void submit()}
              data-testid="role-save"
            >
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
          <Form.Item name="descriptionEn" label={t('roles.descriptionEn')}>
            <Input.TextArea maxLength={200} rows={2} data-testid="role-description-en" />
          </Form.Item>
          <Form.Item label={t('roles.grants')} extra={t('roles.grantsTip')}>
            {tree.isLoading || grants.isFetching ? <Spin /> : null}
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
