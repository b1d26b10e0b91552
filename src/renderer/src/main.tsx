import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connect } from './api/client';
import { App } from './App';
import { attachClient } from './state/appStore';
import './styles/app.css';

attachClient(connect());
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
