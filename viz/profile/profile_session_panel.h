// The session page: where the session came from, the GPU it ran on (name, compute capability, SMs,
// clocks, driver, CUDA and CUPTI versions, counter permission), how it was measured (the clocks seen,
// launch sizes, cache control, the kernel timer), the ceilings with their methods, the memory ladder
// measured on the GPU, the kernels and their launches, and everything that went wrong: the reader's
// problems, the probe's error records and its log.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QTextBrowser;

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {

class ProfileSessionPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProfileSessionPanel(QWidget* parent = nullptr);
    // `problems`: what the reader found wrong; `source`: the file or "live run" the session came from.
    void setSession(const session::Session& current, const QStringList& problems, const QString& source);
    QString plainText() const;

private:
    QTextBrowser* m_text = nullptr;
};

// The session page as HTML (also used for tests and the command line's screenshots).
QString sessionPageHtml(const session::Session& current, const QStringList& problems, const QString& source);

} // namespace warpscope::viz
