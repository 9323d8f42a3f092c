/**
 * A titled card of the funds screens (a region named by its title), with optional actions.
 *
 * @module
 */

import { Box, Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useId } from 'react';

export function Panel({
  title,
  description,
  actions,
  children,
  headingLevel = 'h3',
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  headingLevel?: 'h2' | 'h3';
}) {
  const id = useId();
  return (
    <Card.Root as="section" aria-labelledby={id} variant="outline" rounded="xl" bg="bg.panel" overflow="hidden">
      <Card.Header px={{ base: '4', md: '6' }} pt={{ base: '4', md: '5' }} pb={children ? '0' : { base: '4', md: '5' }}>
        <Flex gap="3" align={{ base: 'flex-start', sm: 'center' }} justify="space-between" direction={{ base: 'column', sm: 'row' }}>
          <Stack gap="0.5" minW="0">
            <Heading as={headingLevel} id={id} fontSize="md" fontWeight="semibold" letterSpacing="-0.01em">
              {title}
            </Heading>
            {description && (
              <Text fontSize="sm" color="fg.muted">
                {description}
              </Text>
            )}
          </Stack>
          {actions && (
            <Flex gap="2" flexShrink={0} flexWrap="wrap">
              {actions}
            </Flex>
          )}
        </Flex>
      </Card.Header>
      {children && (
        <Card.Body px={{ base: '4', md: '6' }} py={{ base: '4', md: '5' }}>
          <Box minW="0">{children}</Box>
        </Card.Body>
      )}
    </Card.Root>
  );
}
