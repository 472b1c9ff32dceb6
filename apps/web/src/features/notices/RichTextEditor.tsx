import {
  BoldOutlined,
  FontSizeOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import Image from '@tiptap/extension-image';
import { Placeholder } from '@tiptap/extensions';
import { type Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Input, Popover, Space, Tooltip } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './editor.css';

/** SPEC section 5: external links are http, https, mailto or tel. */
const LINK = /^(https?:\/\/|mailto:|tel:)/i;
const IMAGE = /^https?:\/\//i;

/** A toolbar button that asks for an address first (a link's, an image's). */
function AddressButton({
  icon,
  title,
  prompt,
  pattern,
  active,
  onPick,
  testId,
}: {
  icon: ReactNode;
  title: string;
  prompt: string;
  pattern: RegExp;
  active?: boolean;
  onPick: (url: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const valid = pattern.test(url.trim());
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      content={
        <Space.Compact style={{ width: 320 }}>
          <Input
            autoFocus
            value={url}
            placeholder={prompt}
            status={url && !valid ? 'error' : undefined}
            onChange={(e) => setUrl(e.target.value)}
            onPressEnter={() => {
              if (!valid) return;
              onPick(url.trim());
              setOpen(false);
              setUrl('');
            }}
            data-testid={`${testId}-url`}
          />
          <Button
            type="primary"
            disabled={!valid}
            onClick={() => {
              onPick(url.trim());
              setOpen(false);
              setUrl('');
            }}
          >
            {t('shell.ok')}
          </Button>
        </Space.Compact>
      }
    >
      <Tooltip title={title}>
        <Button type={active ? 'primary' : 'text'} size="small" icon={icon} data-testid={testId} />
      </Tooltip>
    </Popover>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const { t } = useTranslation();
  // Re-rendered as the selection moves, so the buttons show what applies where the caret is.
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      heading: e.isActive('heading', { level: 3 }),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  const button = (key: string, icon: ReactNode, active: boolean, run: () => void, disabled = false) => (
    <Tooltip key={key} title={t(`announcements.editor.${key}`)}>
      <Button
        type={active ? 'primary' : 'text'}
        size="small"
        icon={icon}
        disabled={disabled}
        onClick={run}
        data-testid={`editor-${key}`}
      />
    </Tooltip>
  );
  return (
    <div className="rich-editor-toolbar">
      {button('bold', <BoldOutlined />, state.bold, () => chain().toggleBold().run())}
      {button('italic', <ItalicOutlined />, state.italic, () => chain().toggleItalic().run())}
      {button('underline', <UnderlineOutlined />, state.underline, () => chain().toggleUnderline().run())}
      {button('strike', <StrikethroughOutlined />, state.strike, () => chain().toggleStrike().run())}
      {button('heading', <FontSizeOutlined />, state.heading, () =>
        chain().toggleHeading({ level: 3 }).run(),
      )}
      {button('bulletList', <UnorderedListOutlined />, state.bulletList, () =>
        chain().toggleBulletList().run(),
      )}
      {button('orderedList', <OrderedListOutlined />, state.orderedList, () =>
        chain().toggleOrderedList().run(),
      )}
      <AddressButton
        icon={<LinkOutlined />}
        title={t('announcements.editor.link')}
        prompt={t('announcements.editor.linkPrompt')}
        pattern={LINK}
        active={state.link}
        onPick={(href) => chain().extendMarkRange('link').setLink({ href }).run()}
        testId="editor-link"
      />
      <AddressButton
        icon={<PictureOutlined />}
        title={t('announcements.editor.image')}
        prompt={t('announcements.editor.imagePrompt')}
        pattern={IMAGE}
        onPick={(src) => chain().setImage({ src }).run()}
        testId="editor-image"
      />
      {button('undo', <UndoOutlined />, false, () => chain().undo().run(), !state.canUndo)}
      {button('redo', <RedoOutlined />, false, () => chain().redo().run(), !state.canRedo)}
    </div>
  );
}

/**
 * The announcement's rich text, as a form control: `value` is HTML, `onChange` gets HTML. Loaded
 * only with the management page (TipTap and ProseMirror are large). The server sanitises what it
 * gets; the editor itself only makes the tags the server keeps.
 */
export default function RichTextEditor({
  id,
  value,
  onChange,
  placeholder,
}: {
  id?: string;
  value?: string;
  onChange?: (html: string) => void;
  placeholder?: string;
}) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [3, 4] },
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true, protocols: ['mailto', 'tel'] },
      }),
      Image,
      Placeholder.configure({ placeholder: placeholder ?? '' }),
    ],
    content: value ?? '',
    // An empty editor is '' rather than '<p></p>', so "required" means what it says.
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
    editorProps: { attributes: { 'data-testid': 'announcement-editor', ...(id ? { id } : {}) } },
  });
  // A value set from outside (the form filled for another announcement) replaces the text.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if ((value ?? '') !== current) editor.commands.setContent(value ?? '', { emitUpdate: false });
  }, [editor, value]);
  if (!editor) return null;
  return (
    <div className="rich-editor">
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </div>
  );
}
