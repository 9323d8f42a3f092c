/**
 * The frame of a security settings screen (heading, description, a card with the form) and what
 * every settings form does after a successful change: refresh the user record, say so, and go
 * back to the security tab.
 *
 * @module
 */

import { Card, Stack } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback } from 'react';
import { useNavigate } from 'react-router';
import { getGetInfoQueryKey } from '../../../api/generated/user/user';
import type { UserInfo } from '../../../api/generated/model';
import { toaster } from '../../../lib/toaster';
import { TabHeader } from '../account-layout';
import { tabPath } from '../lib/tabs';

export function SettingScreen({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Stack gap="5">
      <TabHeader title={title} description={description} />
      <Card.Root variant="outline" rounded="xl" bg="bg.panel">
        <Card.Body p={{ base: '4', md: '6' }}>{children}</Card.Body>
      </Card.Root>
    </Stack>
  );
}

/** After a change: store the new user record (when the call answered one) or refetch it, toast `message`, go back. */
export function useSettingDone(): (message: string, user?: UserInfo) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (message: string, user?: UserInfo) => {
      if (user) queryClient.setQueryData(getGetInfoQueryKey(), user);
      await queryClient.invalidateQueries({ queryKey: getGetInfoQueryKey() });
      toaster.create({ type: 'success', title: message });
      await navigate(tabPath('security'));
    },
    [queryClient, navigate],
  );
}
