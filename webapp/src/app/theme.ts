/**
 * The Chakra UI system: default preset plus the Kestrel brand palette, exchange up/down colours and
 * darker, calmer dark-mode surfaces.
 *
 * @module
 */

import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  animationStyles,
  breakpoints,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  keyframes,
  layerStyles,
  recipes,
  semanticTokens,
  textStyles,
  tokens,
  alertSlotRecipe, avatarSlotRecipe, breadcrumbSlotRecipe, cardSlotRecipe, checkboxSlotRecipe, collapsibleSlotRecipe, comboboxSlotRecipe, dataListSlotRecipe, dialogSlotRecipe, drawerSlotRecipe, emptyStateSlotRecipe, fieldSlotRecipe, fieldsetSlotRecipe, listSlotRecipe, menuSlotRecipe, nativeSelectSlotRecipe, progressSlotRecipe, radioCardSlotRecipe, selectSlotRecipe, tableSlotRecipe, tabsSlotRecipe, toastSlotRecipe,
} from '@chakra-ui/react/theme';

/**
 * The slot recipes (multi-part component styles) of the Chakra components the app uses. Chakra's
 * default preset carries ~50 of them (date pickers, carousels, colour pickers…): about 15 KB of
 * gzipped JavaScript in every page's first download for components never shown. A component used
 * without its recipe would render unstyled: `theme.test.ts` fails when a Chakra component imported
 * anywhere in src has a default slot recipe missing here.
 */
export const slotRecipes = {
  alert: alertSlotRecipe,
  avatar: avatarSlotRecipe,
  breadcrumb: breadcrumbSlotRecipe,
  card: cardSlotRecipe,
  checkbox: checkboxSlotRecipe,
  collapsible: collapsibleSlotRecipe,
  combobox: comboboxSlotRecipe,
  dataList: dataListSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  fieldset: fieldsetSlotRecipe,
  list: listSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  progress: progressSlotRecipe,
  radioCard: radioCardSlotRecipe,
  select: selectSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  toast: toastSlotRecipe,
};

/** Chakra's default theme with only the slot recipes above (the single-part recipes are all kept). */
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: { breakpoints, keyframes, tokens, semanticTokens, recipes, slotRecipes, textStyles, layerStyles, animationStyles },
});

const config = defineConfig({
  globalCss: {
    'html, body': { bg: 'bg', color: 'fg' },
    body: { minHeight: '100vh' },
  },
  theme: {
    tokens: {
      fonts: {
        heading: {
          value:
            'Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Noto Sans CJK SC", "Noto Sans Thai", sans-serif',
        },
        body: {
          value:
            'Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Noto Sans CJK SC", "Noto Sans Thai", sans-serif',
        },
        mono: { value: '"JetBrains Mono", "SFMono-Regular", Menlo, Consolas, monospace' },
      },
      colors: {
        brand: {
          50: { value: '#fff6ed' },
          100: { value: '#ffe9d3' },
          200: { value: '#ffcfa5' },
          300: { value: '#ffad6d' },
          400: { value: '#ff8a3d' },
          500: { value: '#f76c15' },
          600: { value: '#db540b' },
          700: { value: '#b53f0c' },
          800: { value: '#903312' },
          900: { value: '#742c12' },
          950: { value: '#3f1307' },
        },
      },
    },
    semanticTokens: {
      colors: {
        bg: {
          DEFAULT: { value: { _light: '{colors.white}', _dark: '#0b0e14' } },
          subtle: { value: { _light: '#f7f8fa', _dark: '#0f131b' } },
          muted: { value: { _light: '#f0f2f5', _dark: '#161b25' } },
          emphasized: { value: { _light: '#e5e8ec', _dark: '#1e2430' } },
          panel: { value: { _light: '{colors.white}', _dark: '#121722' } },
        },
        // Chakra's `fg.subtle` reads below 4.5:1 on the panels (2.4:1 on the light grey): darker in
        // light (4.5:1 even on bg.emphasized), gray.400 in dark.
        fg: {
          subtle: { value: { _light: '#66666e', _dark: '{colors.gray.400}' } },
        },
        border: {
          DEFAULT: { value: { _light: '#e6e8ec', _dark: '#1f2633' } },
          muted: { value: { _light: '#eef0f3', _dark: '#181e29' } },
        },
        brand: {
          solid: { value: { _light: '{colors.brand.500}', _dark: '{colors.brand.400}' } },
          // Dark text on the orange in both themes: white on it reads at 2.9:1, below WCAG AA.
          contrast: { value: { _light: '#1a0d04', _dark: '#1a0d04' } },
          fg: { value: { _light: '{colors.brand.700}', _dark: '{colors.brand.300}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.900}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.950}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.800}' } },
          focusRing: { value: { _light: '{colors.brand.500}', _dark: '{colors.brand.400}' } },
        },
        // Price movement: tones dark enough for 4.5:1 on white, the muted grey and their own tints.
        up: { value: { _light: '#02784f', _dark: '#2ebd85' } },
        down: { value: { _light: '#c42845', _dark: '#f75a6e' } },
        // Text on a solid up/down background: white on the dark light-theme tones, near-black on the
        // bright dark-theme ones (white on them reads at 2.4–3.3:1).
        onUp: { value: { _light: '{colors.white}', _dark: '#0b0e14' } },
        onDown: { value: { _light: '{colors.white}', _dark: '#0b0e14' } },
        flat: { value: { _light: '{colors.gray.600}', _dark: '{colors.gray.400}' } },
        upSubtle: { value: { _light: '#e6f6ef', _dark: 'rgba(46, 189, 133, 0.12)' } },
        downSubtle: { value: { _light: '#fdecef', _dark: 'rgba(246, 70, 93, 0.12)' } },
        hero: { value: { _light: '#0b0e14', _dark: '#0b0e14' } },
      },
    },
  },
});

/** The app's design system. */
export const system = createSystem(defaultBaseConfig, chakraTheme, config);
