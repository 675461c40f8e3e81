// The entry of the pre-rendered landing page (/ and /eu on a first visit): hydrates what the
// server rendered, without the router or the app's other screens. See docs/decisions/015.
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { LandingApp } from './app/landing-app';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('landing.html has no #root element');

hydrateRoot(
  root,
  <StrictMode>
    <LandingApp />
  </StrictMode>,
);
