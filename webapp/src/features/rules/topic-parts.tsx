/**
 * The building blocks of a topic: a section with its heading, paragraphs, bullet and step lists, and
 * the row of links that ends a topic.
 *
 * @module
 */

import { Button, Heading, List, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/** A section of a topic under its own heading. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack as="section" gap="3">
      <Heading as="h3" fontSize="md" fontWeight="semibold">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

/** One paragraph of body text. */
export function Para({ children }: { children: ReactNode }) {
  return (
    <Text fontSize="sm" lineHeight="tall" color="fg">
      {children}
    </Text>
  );
}

/** A bulleted (or, with `ordered`, numbered) list of sentences. */
export function Points({ items, ordered = false }: { items: readonly ReactNode[]; ordered?: boolean }) {
  return (
    <List.Root as={ordered ? 'ol' : 'ul'} gap="2" ps="5" fontSize="sm" lineHeight="tall">
      {items.map((item, index) => (
        <List.Item key={index}>{item}</List.Item>
      ))}
    </List.Root>
  );
}

/** A link shown as a button at the end of a topic. */
export interface TopicLink {
  label: string;
  to: string;
}

/** The links that end a topic: the first one as the main action. */
export function TopicLinks({ links }: { links: readonly TopicLink[] }) {
  if (links.length === 0) return null;
  return (
    <Stack direction="row" gap="3" wrap="wrap" pt="2">
      {links.map((link, index) => (
        <Button key={link.to} asChild size="sm" colorPalette="brand" variant={index === 0 ? 'solid' : 'outline'}>
          <RouterLink to={link.to}>{link.label}</RouterLink>
        </Button>
      ))}
    </Stack>
  );
}
