import { UserOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MenuIcon } from '../../components/MenuIcon.tsx';
import { PrivateAvatar } from '../../components/PrivateAvatar.tsx';
import { allowedMenus, flattenPages, type MenuNode, useSession } from '../../context/session.tsx';

interface ShortcutGroup {
  key: string;
  title: string;
  icon: string;
  pages: MenuNode[];
}

/** The pages this user may open, grouped by the menu area they sit in; top-level pages close the list. */
function shortcutGroups(menus: MenuNode[], en: boolean, othersTitle: string): ShortcutGroup[] {
  const groups = new Map<string, ShortcutGroup>();
  const others: ShortcutGroup = { key: 'others', title: othersTitle, icon: 'AppstoreOutlined', pages: [] };
  for (const { node, parents } of flattenPages(menus)) {
    if (node.is_show !== 1 || node.paths === '/home') continue;
    const area = parents[0];
    if (!area) {
      others.pages.push(node);
      continue;
    }
    const group = groups.get(area.paths) ?? {
      key: area.paths,
      title: en ? area.name_en : area.name,
      icon: area.icon,
      pages: [],
    };
    group.pages.push(node);
    groups.set(area.paths, group);
  }
  return [...groups.values(), ...(others.pages.length > 0 ? [others] : [])];
}

/** Who is signed in, and a shortcut to every page granted to them. */
export default function HomePage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { userInfo, menus, permissions } = useSession();
  const navigate = useNavigate();
  const groups = shortcutGroups(allowedMenus(menus, permissions), en, t('home.others'));
  return (
    // A CSS grid rather than antd's Row: a Row measures the screen after it mounts and then renders
    // the whole page again.
    <div className="home-grid">
      <Card>
        <Flex gap={16} align="center" style={{ marginBottom: 16 }}>
          <PrivateAvatar size={56} url={userInfo?.avatar} />
          <div style={{ minWidth: 0 }}>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="home-greeting">
              {t('home.greeting', { name: userInfo?.name ?? '' })}
            </Typography.Title>
            <Typography.Text type="secondary">{t('home.welcomeBack')}</Typography.Text>
          </div>
        </Flex>
        {/* A plain list rather than antd's Descriptions, which measures the screen after it mounts. */}
        <dl className="home-facts">
          <dt>{t('home.identity')}</dt>
          <dd>
            <Tag color="orange">{t(`identity.${userInfo?.identity ?? 'customer'}`)}</Tag>
          </dd>
          <dt>{t('home.company')}</dt>
          <dd>{userInfo?.company || '-'}</dd>
          <dt>{t('home.email')}</dt>
          <dd>{userInfo?.email}</dd>
        </dl>
        <Button block icon={<UserOutlined />} style={{ marginTop: 8 }} onClick={() => navigate('/profile')}>
          {t('shell.personalCenter')}
        </Button>
      </Card>
      <Card title={t('home.shortcuts')}>
        {groups.length === 0 ? (
          <Empty description={t('home.noShortcuts')} />
        ) : (
          <Flex vertical gap={16}>
            {groups.map((group) => (
              <section key={group.key} className="shortcut-group">
                <Typography.Text strong className="shortcut-group-title">
                  <MenuIcon name={group.icon} /> {group.title}
                </Typography.Text>
                <Flex wrap gap={8}>
                  {group.pages.map((node) => (
                    <Button
                      key={node.paths}
                      icon={<MenuIcon name={node.icon} />}
                      onClick={() => navigate(node.paths)}
                      data-testid={`shortcut-${node.paths}`}
                    >
                      {en ? node.name_en : node.name}
                    </Button>
                  ))}
                </Flex>
              </section>
            ))}
          </Flex>
        )}
      </Card>
    </div>
  );
}
