/**
 * The centred card of the login, register and reset screens: the mark, a level-1 title, an
 * optional subtitle, the form, and a footer line (links to the other screens).
 *
 * @module
 */

import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LogoMark } from '../../components/logo';
import { useDocumentTitle } from '../../hooks/use-document-title';

export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <Box
      w="full"
      maxW="md"
      mx="auto"
      bg="bg.panel"
      borderWidth="1px"
      rounded="2xl"
      shadow={{ base: '0 1px 2px rgba(16,24,40,0.04), 0 12px 32px -12px rgba(16,24,40,0.12)', _dark: 'none' }}
      px={{ base: '6', sm: '10' }}
      py={{ base: '8', sm: '10' }}
    >
      <Stack gap="2" mb="7">
        <Box mb="3">
          <LogoMark size={36} />
        </Box>
        <Heading as="h1" fontSize="2xl" lineHeight="1.2" letterSpacing="-0.02em" fontWeight="700">
          {title}
        </Heading>
        {subtitle && (
          <Text color="fg.muted" fontSize="sm">
            {subtitle}
          </Text>
        )}
      </Stack>
      {children}
      {footer && (
        <Text mt="7" pt="6" borderTopWidth="1px" textAlign="center" fontSize="sm" color="fg.muted">
          {footer}
        </Text>
      )}
    </Box>
  );
}
