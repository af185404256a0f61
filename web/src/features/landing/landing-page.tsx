import { Faq } from './faq';
import { Footer } from './footer';
import { Hero } from './hero';
import { LandingNav } from './landing-nav';
import { ClosingCallToAction, Comparison, Features, HowItWorks, Pricing } from './sections';

export function LandingPage() {
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <LandingNav />
      <main id="main">
        <Hero />
        <Comparison />
        <HowItWorks />
        <Features />
        <Pricing />
        <ClosingCallToAction />
        <Faq />
      </main>
      <Footer />
    </>
  );
}
