/**
 * The operators' content (`/admin?queue=content`, docs/api.md "Content", operators): the entries of
 * one kind with the state of each translation, and an editor — a new entry's slug and place (topic,
 * help category, parent, `modelType`), then per language the title, summary and Markdown body with
 * the server's own preview (`/api/admin/content/preview`: sanitised as readers will see it), images
 * through the checked upload (`![name](upload:ID)`), save as draft, publish, unpublish, pin (for
 * announcements), delete a translation or the entry.
 *
 * @module
 */

import { Badge, Box, Button, Field, Flex, Grid, HStack, Heading, Input, NativeSelect, Stack, Table, Tabs, Text, Textarea } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  adminContentDelete,
  adminContentPin,
  adminContentPreview,
  adminContentPublish,
  adminContentSave,
  adminContentUnpublish,
  useAdminContentGet,
  useAdminContentList,
} from '../../api/generated/admin-content/admin-content';
import { useCgformGetData } from '../../api/generated/content/content';
import { useUploadFile } from '../../api/generated/kyc/kyc';
import type { AdminEntry, ContentKind, SaveContentRequest } from '../../api/generated/model';
import { LANGUAGES } from '../../i18n/languages';
import { SILENT, failure, useApiHead } from '../../lib/api-calls';
import { toaster } from '../../lib/toaster';
import { ContentHtml } from '../../components/content/content-parts';
import { ANNOUNCEMENT_TOPICS, HELP_CATEGORIES } from '../../lib/content-codes';

/** The kinds, in the order of the kind list. */
export const KINDS = ['announcement', 'topic', 'rule', 'help', 'category', 'section', 'article', 'company'] as const satisfies readonly ContentKind[];
type Kind = (typeof KINDS)[number];
const PAGE_SIZE = 20;

function Select({ label, value, options, onChange }: { label: string; value: string; options: { value: string; label: string }[]; onChange: (v: string) => void }) {
  return (
    <Field.Root>
      <Field.Label fontSize="xs">{label}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

function titleOf(entry: AdminEntry): string {
  return (entry.translations.find((text) => text.lang === 'en') ?? entry.translations[0])?.title ?? entry.slug;
}

function EntryList({ kind, onEdit }: { kind: Kind; onEdit: (id: number) => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useAdminContentList({ kind, page, pageSize: PAGE_SIZE });
  const records = list.data?.records ?? [];
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  return (
    <Stack gap="3">
      <Box overflowX="auto" borderWidth="1px" rounded="xl">
        <Table.Root size="sm" aria-label={t('content.admin.listLabel', { kind: t(`content.admin.kinds.${kind}`) })}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('content.admin.titleColumn')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('content.admin.slug')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('content.admin.languages')}</Table.ColumnHeader>
              <Table.ColumnHeader />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {records.map((entry) => (
              <Table.Row key={entry.id}>
                <Table.Cell maxW="80" truncate>
                  {entry.pinned && (
                    <Badge colorPalette="brand" size="sm" me="2">
                      {t('content.notices.pinned')}
                    </Badge>
                  )}
                  {titleOf(entry)}
                </Table.Cell>
                <Table.Cell fontFamily="mono" fontSize="xs">
                  {entry.slug}
                </Table.Cell>
                <Table.Cell>
                  <Flex gap="1" wrap="wrap">
                    {entry.translations.map((text) => (
                      <Badge key={text.lang} size="sm" colorPalette={text.status === 'published' ? 'green' : 'gray'} title={t(`content.admin.status.${text.status === 'published' ? 'published' : 'draft'}`)}>
                        {text.lang}
                      </Badge>
                    ))}
                  </Flex>
                </Table.Cell>
                <Table.Cell textAlign="end">
                  <Button size="xs" variant="outline" onClick={() => onEdit(entry.id)} aria-label={t('content.admin.editNamed', { title: titleOf(entry) })}>
                    {t('content.admin.edit')}
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
      {list.data && records.length === 0 && <Text color="fg.muted">{t('content.admin.none')}</Text>}
      {pages > 1 && (
        <HStack justify="center">
          <Button size="xs" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {t('content.previous')}
          </Button>
          <Text fontSize="sm">
            {page} / {pages}
          </Text>
          <Button size="xs" variant="outline" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            {t('content.next')}
          </Button>
        </HStack>
      )}
    </Stack>
  );
}

/** The parents a new section (categories) or article (sections) may have. */
function useParents(kind: Kind) {
  const head = useApiHead();
  const form = kind === 'section' ? 'article_category' : 'article_section';
  const params = { pageSize: -521, column: 'position', order: 'asc' } as const;
  return useCgformGetData(head, form, params, { query: { enabled: kind === 'section' || kind === 'article' } });
}

interface Fields {
  slug: string;
  topic: string;
  category: string;
  parentId: string;
  modelType: string;
  position: string;
  title: string;
  summary: string;
  body: string;
}

function fieldsOf(entry: AdminEntry | undefined, lang: string): Fields {
  const text = entry?.translations.find((item) => item.lang === lang);
  return {
    slug: entry?.slug ?? '',
    topic: entry?.topic ?? 'news',
    category: entry?.category ?? HELP_CATEGORIES[0],
    parentId: entry?.parentId ? String(entry.parentId) : '',
    modelType: entry?.modelType !== undefined ? String(entry.modelType) : '',
    position: entry ? String(entry.position) : '0',
    title: text?.title ?? '',
    summary: text?.summary ?? '',
    body: text?.body ?? '',
  };
}

function Editor({ kind, id, onDone, onCreated }: { kind: Kind; id: number | null; onDone: () => void; onCreated: (id: number) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const entry = useAdminContentGet(id ?? 0, { query: { enabled: id !== null } });
  const parents = useParents(kind);
  const upload = useUploadFile({ request: SILENT });
  const [lang, setLang] = useState('en');
  const [fields, setFields] = useState<Fields>(() => fieldsOf(undefined, 'en'));
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const [tab, setTab] = useState('write');
  const [confirmDelete, setConfirmDelete] = useState<'text' | 'entry' | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const data = entry.data;
  const text = data?.translations.find((item) => item.lang === lang);

  // Fill the form once the entry (or another language of it) has arrived.
  const key = id === null ? `new:${lang}` : data ? `${data.id}:${lang}:${data.updatedAt}` : null;
  if (id !== null && key && key !== loadedFor) {
    setLoadedFor(key);
    setFields(fieldsOf(data, lang));
    setPreview(null);
  }
  const set = (name: keyof Fields) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setFields((f) => ({ ...f, [name]: event.target.value }));

  const refresh = async () => {
    await queryClient.invalidateQueries({ predicate: (query) => typeof query.queryKey[0] === 'string' && (query.queryKey[0].startsWith('/api/admin/content') || query.queryKey[0].startsWith('/api/content')) });
  };
  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      await refresh();
      toaster.create({ type: 'success', title: done });
    } catch (err) {
      setError(failure(err, t('content.admin.failed')).message);
    } finally {
      setBusy(false);
      setConfirmDelete(null);
    }
  };

  const save = () => {
    // The spec's prompt, before a call the server would refuse (`content_required`) anyway.
    if (fields.title.trim() === '' || fields.body.trim() === '') {
      setError(t('errors.enterContent'));
      return Promise.resolve();
    }
    return run(async () => {
      const body: SaveContentRequest = { lang, title: fields.title, summary: fields.summary, body: fields.body, position: Number(fields.position) || 0 };
      if (id === null) {
        body.kind = kind;
        body.slug = fields.slug.trim();
        if (kind === 'announcement') body.topic = fields.topic;
        if (kind === 'help') body.category = fields.category;
        if ((kind === 'section' || kind === 'article') && fields.parentId) body.parentId = Number(fields.parentId);
        if ((kind === 'topic' || kind === 'rule') && fields.modelType) body.modelType = Number(fields.modelType);
      } else {
        body.id = id;
      }
      const saved = await adminContentSave(body);
      if (id === null) onCreated(saved.id);
    }, t('content.admin.saved'));
  };

  const insertImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    try {
      const uploaded = await upload.mutateAsync({ data: { file } });
      if (!uploaded.contentType.startsWith('image/')) throw new Error(t('content.admin.notImage'));
      const alt = file.name.replace(/\.[a-z0-9]+$/i, '').replace(/[[\]]/g, '');
      setFields((f) => ({ ...f, body: `${f.body}${f.body && !f.body.endsWith('\n') ? '\n\n' : ''}![${alt}](upload:${uploaded.fileId})\n` }));
    } catch (err) {
      setError(err instanceof Error && !('status' in err) ? err.message : failure(err, t('content.admin.uploadFailed')).message);
    }
  };

  const showPreview = async () => {
    setTab('preview');
    setPreview(null);
    setError(null);
    try {
      const answer = await adminContentPreview({ body: fields.body });
      setPreview(answer.html);
    } catch (err) {
      setError(failure(err, t('content.admin.failed')).message);
    }
  };

  const heading = id === null ? t('content.admin.newEntry', { kind: t(`content.admin.kinds.${kind}`) }) : t('content.admin.editing', { title: data ? titleOf(data) : '…' });
  const status = text ? t(`content.admin.status.${text.status === 'published' ? 'published' : 'draft'}`) : t('content.admin.status.none');
  const parentOptions = [{ value: '', label: '—' }, ...(parents.data?.records ?? []).map((record) => ({ value: String(record.id), label: record.title }))];

  return (
    <Stack as="section" aria-label={heading} gap="4" borderWidth="1px" rounded="2xl" bg="bg.panel" p={{ base: '4', md: '6' }}>
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h2" fontSize="lg">
          {heading}
        </Heading>
        <Button size="sm" variant="ghost" onClick={onDone}>
          {t('content.admin.close')}
        </Button>
      </Flex>
      <Grid templateColumns={{ base: '1fr', md: 'repeat(3, minmax(0, 1fr))' }} gap="3">
        <Select label={t('content.admin.language')} value={lang} options={LANGUAGES.map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }))} onChange={setLang} />
        {id === null && (
          <Field.Root required>
            <Field.Label fontSize="xs">{t('content.admin.slug')}</Field.Label>
            <Input size="sm" value={fields.slug} onChange={set('slug')} maxLength={96} pattern="[a-z0-9]+(-[a-z0-9]+)*" />
          </Field.Root>
        )}
        {id === null && kind === 'announcement' && (
          <Select label={t('content.admin.topic')} value={fields.topic} options={ANNOUNCEMENT_TOPICS.filter((c) => c !== 'all').map((c) => ({ value: c, label: t(`content.notices.topics.${c}`) }))} onChange={(v) => setFields((f) => ({ ...f, topic: v }))} />
        )}
        {id === null && kind === 'help' && (
          <Select label={t('content.admin.category')} value={fields.category} options={HELP_CATEGORIES.map((c) => ({ value: c, label: t(`content.help.categories.${c}`) }))} onChange={(v) => setFields((f) => ({ ...f, category: v }))} />
        )}
        {id === null && (kind === 'section' || kind === 'article') && (
          <Select label={t('content.admin.parent')} value={fields.parentId} options={parentOptions} onChange={(v) => setFields((f) => ({ ...f, parentId: v }))} />
        )}
        {id === null && (kind === 'topic' || kind === 'rule') && (
          <Field.Root>
            <Field.Label fontSize="xs">{t('content.admin.modelType')}</Field.Label>
            <Input size="sm" inputMode="numeric" value={fields.modelType} onChange={set('modelType')} />
          </Field.Root>
        )}
        <Field.Root>
          <Field.Label fontSize="xs">{t('content.admin.position')}</Field.Label>
          <Input size="sm" inputMode="numeric" value={fields.position} onChange={set('position')} disabled={id !== null} />
        </Field.Root>
      </Grid>
      <Text fontSize="sm" color="fg.muted" role="status">
        {t('content.admin.textStatus', { lang, status })}
      </Text>
      <Field.Root required>
        <Field.Label fontSize="xs">{t('content.admin.title')}</Field.Label>
        <Input size="sm" value={fields.title} onChange={set('title')} maxLength={200} />
      </Field.Root>
      <Field.Root>
        <Field.Label fontSize="xs">{t('content.admin.summary')}</Field.Label>
        <Input size="sm" value={fields.summary} onChange={set('summary')} maxLength={1000} />
      </Field.Root>
      <Tabs.Root value={tab} onValueChange={(details) => (details.value === 'preview' ? void showPreview() : setTab(details.value))} variant="enclosed" size="sm">
        <Tabs.List>
          <Tabs.Trigger value="write">{t('content.admin.write')}</Tabs.Trigger>
          <Tabs.Trigger value="preview">{t('content.admin.preview')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="write" pt="3">
          <Field.Root required>
            <Field.Label fontSize="xs">{t('content.admin.body')}</Field.Label>
            <Textarea value={fields.body} onChange={set('body')} placeholder={t('errors.enterContent')} rows={14} fontFamily="mono" fontSize="sm" maxLength={100000} />
            <Field.HelperText>{t('content.admin.markdownHint')}</Field.HelperText>
          </Field.Root>
          <input ref={fileInput} type="file" accept="image/png,image/jpeg,image/gif,image/webp" hidden onChange={(event) => void insertImage(event)} aria-label={t('content.admin.image')} />
          <Button size="xs" variant="outline" mt="2" loading={upload.isPending} onClick={() => fileInput.current?.click()}>
            {t('content.admin.image')}
          </Button>
        </Tabs.Content>
        <Tabs.Content value="preview" pt="3">
          <Box borderWidth="1px" rounded="lg" p="4" minH="24" aria-label={t('content.admin.preview')}>
            {preview === null ? <Text color="fg.muted">…</Text> : <ContentHtml html={preview} />}
          </Box>
        </Tabs.Content>
      </Tabs.Root>
      {error && (
        <Text color="fg.error" fontSize="sm" role="alert">
          {error}
        </Text>
      )}
      <Flex gap="2" wrap="wrap">
        <Button size="sm" colorPalette="brand" loading={busy} onClick={() => void save()}>
          {t('content.admin.save')}
        </Button>
        {id !== null && text && (
          <>
            {text.status === 'published' ? (
              <Button size="sm" variant="outline" disabled={busy} onClick={() => void run(() => adminContentUnpublish(id, { lang }), t('content.admin.unpublished'))}>
                {t('content.admin.unpublish')}
              </Button>
            ) : (
              <Button size="sm" variant="solid" colorPalette="green" disabled={busy} onClick={() => void run(() => adminContentPublish(id, { lang }), t('content.admin.published'))}>
                {t('content.admin.publish')}
              </Button>
            )}
          </>
        )}
        {id !== null && data && kind === 'announcement' && (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => void run(() => adminContentPin(id, { pinned: !data.pinned }), data.pinned ? t('content.admin.unpinned') : t('content.admin.pinned'))}>
            {data.pinned ? t('content.admin.unpin') : t('content.admin.pin')}
          </Button>
        )}
        {id !== null && text && (
          <Button size="sm" variant="ghost" colorPalette="red" disabled={busy} onClick={() => (confirmDelete === 'text' ? void run(() => adminContentDelete(id, { lang }), t('content.admin.deleted')) : setConfirmDelete('text'))}>
            {confirmDelete === 'text' ? t('content.admin.confirm') : t('content.admin.deleteText', { lang })}
          </Button>
        )}
        {id !== null && (
          <Button
            size="sm"
            variant="ghost"
            colorPalette="red"
            disabled={busy}
            onClick={() => (confirmDelete === 'entry' ? void run(async () => { await adminContentDelete(id, {}); onDone(); }, t('content.admin.deleted')) : setConfirmDelete('entry'))}
          >
            {confirmDelete === 'entry' ? t('content.admin.confirm') : t('content.admin.deleteEntry')}
          </Button>
        )}
      </Flex>
    </Stack>
  );
}

export function ContentAdmin() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<Kind>('announcement');
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  return (
    <Stack gap="5">
      <Flex gap="3" align="end" wrap="wrap">
        <Box minW="56">
          <Select
            label={t('content.admin.kind')}
            value={kind}
            options={KINDS.map((k) => ({ value: k, label: t(`content.admin.kinds.${k}`) }))}
            onChange={(v) => {
              setKind(v as Kind);
              setEditing(null);
            }}
          />
        </Box>
        <Button size="sm" colorPalette="brand" onClick={() => setEditing('new')}>
          {t('content.admin.new')}
        </Button>
      </Flex>
      {editing !== null && (
        <Editor key={`${kind}:${editing}`} kind={kind} id={editing === 'new' ? null : editing} onDone={() => setEditing(null)} onCreated={(id) => setEditing(id)} />
      )}
      <EntryList key={kind} kind={kind} onEdit={setEditing} />
    </Stack>
  );
}
