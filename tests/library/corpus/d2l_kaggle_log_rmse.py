# d2l-en, Predicting House Prices on Kaggle: the log-RMSE with clamped predictions, trained with Adam and weight decay.
import torch
from torch import nn

torch.manual_seed(0)
features = torch.randn(40, 6)
labels = torch.exp(features[:, :1] * 0.3 + 2.0 + torch.randn(40, 1) * 0.05)
loss = nn.MSELoss()
net = nn.Sequential(nn.Linear(6, 1))


def log_rmse(net, features, labels):
    clipped_preds = torch.clamp(net(features), 1, float('inf'))
    rmse = torch.sqrt(loss(torch.log(clipped_preds), torch.log(labels)))
    return rmse.item()


optimizer = torch.optim.Adam(net.parameters(), lr=0.5, weight_decay=0.01)
for epoch in range(30):
    for i in range(0, 40, 8):
        X, y = features[i:i + 8], labels[i:i + 8]
        optimizer.zero_grad()
        l = loss(net(X), y)
        l.backward()
        optimizer.step()
    if epoch % 10 == 9:
        print(epoch + 1, round(log_rmse(net, features, labels), 4))
clipped = torch.clamp(torch.tensor([-3.0, 0.5, 2.0], requires_grad=True), 1, float('inf'))
clipped.sum().backward()
print(clipped, clipped.grad_fn.name())
