/**
 * A titled card of the account centre (a region named by its title), with optional actions at the
 * top right and a description under the title.
 *
 * @module
 */

import { Box, Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useId } from 'react';

export function SectionCard({
  title,
  description,
  actions,
  icon,
  children,
  headingLevel = 'h3',
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  icon?: ReactNode;
  children?: ReactNode;
  headingLevel?: 'h2' | 'h3';
}) {
  const id = useId();
  return (
    <Card.Root as="section" aria-labelledby={id} variant="outline" rounded="xl" bg="bg.panel" overflow="hidden">
      <Card.Header px={{ base: '4', md: '6' }} pt={{ base: '4', md: '5' }} pb={children ? '0' : { base: '4', md: '5' }}>
        <Flex gap="3" align={{ base: 'flex-start', sm: 'center' }} justify="space-between" direction={{ base: 'column', sm: 'row' }}>
          <Flex gap="3" align="center" minW="0">
            {icon && (
              <Box display="inline-flex" alignItems="center" justifyContent="center" boxSize="9" rounded="lg" bg="brand.subtle" color="brand.fg" flexShrink={0}>
                {icon}
              </Box>
            )}
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
          </Flex>
          {actions && (
            <Flex gap="2" flexShrink={0} flexWrap="wrap">
              {actions}
            </Flex>
          )}
        </Flex>
      </Card.Header>
      {children && <Card.Body px={{ base: '4', md: '6' }} py={{ base: '4', md: '5' }}>{children}</Card.Body>}
    </Card.Root>
  );
}
