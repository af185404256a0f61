// Every screen but the landing page: loaded when the visitor first leaves the landing page, so the landing page's
// first download holds neither this route table nor the guards and session code it needs.
import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { GuestOnly, RequireAuth } from './guards';
import { paths } from '@/lib/paths';

const AppProviders = lazy(() => import('./providers'));
const AppShell = lazy(() => import('@/components/layout/app-shell'));
const StudioShell = lazy(() => import('@/components/layout/studio-shell'));

const AuthPage = lazy(() => import('@/features/auth/auth-page'));
const DashboardPage = lazy(() => import('@/features/dashboard/dashboard-page'));
const BillingPage = lazy(() => import('@/features/billing/billing-page'));
const UsagePage = lazy(() => import('@/features/usage/usage-page'));
const PricesPage = lazy(() => import('@/features/prices/prices-page'));
const SettingsPage = lazy(() => import('@/features/settings/settings-page'));
const ApiPage = lazy(() => import('@/features/api-keys/api-page'));
const CommunityPage = lazy(() => import('@/features/community/community-page'));
const SupportPage = lazy(() => import('@/features/support/support-page'));
const GuidesPage = lazy(() => import('@/features/support/guides-page'));
const ProvidersGuidePage = lazy(() => import('@/features/support/providers-guide-page'));
const ComingSoonPage = lazy(() => import('@/features/coming-soon/coming-soon-page'));
const ClothingPage = lazy(() => import('@/features/clothing/clothing-page'));
const ModelsPage = lazy(() => import('@/features/models/models-page'));
const HistoryPage = lazy(() => import('@/features/history/history-page'));
const ImageGenerationPage = lazy(() => import('@/features/image-generation/image-generation-page'));
const VideoGenerationPage = lazy(() => import('@/features/video-generation/video-generation-page'));
const BatchGenerationPage = lazy(() => import('@/features/batch-generation/batch-generation-page'));
const EditPage = lazy(() => import('@/features/image-edit/image-edit-page'));
const UpscalePage = lazy(() => import('@/features/upscale/upscale-page'));
const PackshotPage = lazy(() => import('@/features/packshot/packshot-page'));
const NotFoundPage = lazy(() => import('@/features/not-found/not-found-page'));
const BookDemoPage = lazy(() => import('@/features/demo/book-demo-page'));
const PrivacyPage = lazy(() => import('@/features/legal/legal-page').then((module) => ({ default: module.PrivacyPage })));
const TermsPage = lazy(() => import('@/features/legal/legal-page').then((module) => ({ default: module.TermsPage })));

export default function AppRoutes() {
  return (
    <Routes>
      {/* Public pages the landing page links to: no session, no app providers. */}
      <Route path={paths.demo} element={<BookDemoPage />} />
      <Route path={paths.privacy} element={<PrivacyPage />} />
      <Route path={paths.terms} element={<TermsPage />} />
      <Route element={<AppProviders />}>
        <Route element={<GuestOnly />}>
          <Route path={paths.auth} element={<AuthPage />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={<AppShell />}>
            <Route path={paths.dashboard} element={<DashboardPage />} />
            <Route path={paths.generate} element={<VideoGenerationPage />} />
            <Route path={paths.comingSoon} element={<ComingSoonPage />} />
          </Route>
          <Route path={paths.studio} element={<Navigate to={paths.videoGeneration} replace />} />
          <Route element={<StudioShell />}>
            <Route path={paths.billing} element={<BillingPage />} />
            <Route path={paths.usage} element={<UsagePage />} />
            <Route path={paths.prices} element={<PricesPage />} />
            <Route path={paths.settings} element={<SettingsPage />} />
            <Route path={paths.api} element={<ApiPage />} />
            <Route path={paths.community} element={<CommunityPage />} />
            <Route path={paths.support} element={<SupportPage />} />
            <Route path={paths.supportGuides} element={<GuidesPage />} />
            <Route path={paths.providersGuide} element={<ProvidersGuidePage />} />
            <Route path={paths.clothing} element={<ClothingPage />} />
            <Route path={paths.models} element={<ModelsPage />} />
            <Route path={paths.generations} element={<HistoryPage />} />
            <Route path={paths.imageGeneration} element={<ImageGenerationPage />} />
            <Route path={paths.videoGeneration} element={<VideoGenerationPage />} />
            <Route path={paths.batchGeneration} element={<BatchGenerationPage />} />
            <Route path={paths.edit} element={<EditPage />} />
            <Route path={paths.upscale} element={<UpscalePage />} />
            <Route path={paths.packshot} element={<PackshotPage />} />
          </Route>
        </Route>
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
