import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connect } from './api/client';
import { App } from './App';
import { installFocusReturn } from './components/focusReturn';
import { attachClient } from './state/appStore';
import './styles/app.css';

attachClient(connect());
installFocusReturn();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
