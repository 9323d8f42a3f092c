/**
 * The time zone picker of the side menu: a labelled select of the 38 zones of the platform's table
 * (`UTC+08:00 · Asia/Shanghai`); the choice applies at once to every date, time and candle.
 *
 * @module
 */

import { Field, NativeSelect } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useTimeZone } from '../../hooks/use-time-zone';

export function TimeZoneSelect() {
  const { t } = useTranslation();
  const { zoneId, zones, choose } = useTimeZone();
  return (
    <Field.Root px="3" gap="1.5">
      <Field.Label fontSize="sm" fontWeight="medium">
        {t('menu.timeZone')}
      </Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={zoneId} onChange={(event) => choose(event.currentTarget.value)}>
          {zones.map((zone) => (
            <option key={zone.zoneId} value={zone.zoneId}>
              {`UTC${zone.offSetValue} · ${zone.zoneId}`}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
