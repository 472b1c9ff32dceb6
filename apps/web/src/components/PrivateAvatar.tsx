import { UserOutlined } from '@ant-design/icons';
import { Avatar } from 'antd';
import { usePrivateFile } from './private-file.ts';

/** The user's avatar, an upload only its owner loads: the person icon while it loads or if it cannot. */
export function PrivateAvatar({ url, size }: { url: string | null | undefined; size: 'small' | number }) {
  const { objectUrl } = usePrivateFile(url);
  return <Avatar size={size} src={objectUrl} icon={<UserOutlined />} />;
}
